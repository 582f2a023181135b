package io.topobridge.core.workload.translate;

import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.recovery.OnDomainLoss;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.annotation.AnnotationParser;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.annotation.Dialects;
import io.topobridge.core.workload.annotation.GangIntent;
import io.topobridge.core.workload.annotation.ParsedIntent;
import io.topobridge.core.workload.annotation.TopologyMode;
import io.topobridge.core.workload.autotier.AutoTiers;
import io.topobridge.core.workload.autotier.TierFit;
import io.topobridge.core.workload.dra.ComputeDomains;
import io.topobridge.core.workload.dra.DraDevices;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.Slices;
import io.topobridge.core.workload.kind.Gang;
import io.topobridge.core.workload.kind.KindAdapter;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.WorkloadAdapters;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one judgement of a gang, the same for every kind and for the reconciler and admission alike: its annotations
 * parsed, the checks of its kind and queue, its plans, and its PodGroups built, with what was found on the way.
 */
final class GangJudge {

    private final WorkloadSettings settings;
    private final WorkloadAdapters adapters;
    private final InstantSource clock;

    GangJudge(WorkloadSettings settings, WorkloadAdapters adapters, InstantSource clock) {
        this.settings = settings;
        this.adapters = adapters;
        this.clock = clock;
    }

    /**
     * The judgement of one gang (or of the plan of one pod in it): the PodGroups to make, what was found on the way,
     * the plans looked at, and whether the gang waits only for the tiers to be known.
     */
    record Judged(
            List<DesiredPodGroup> podGroups, List<Finding> findings, List<GangPlan> plans, boolean waitingForTiers) {

        boolean refused() {
            return Finding.anyRejection(findings);
        }

        /**
         * Whether the gang is refused only because no domain of its tier can hold it: its pods are tied all the same,
         * as those of a gang larger than the whole cluster are, so they wait in the gang and join its PodGroup once a
         * domain can hold it rather than run outside it for good.
         */
        boolean waitsForDomain() {
            return refused()
                    && findings.stream()
                            .filter(Finding::isRejection)
                            .allMatch(f -> f.reason() == WorkloadReason.GANG_EXCEEDS_DOMAIN);
        }
    }

    /**
     * Parses a gang's annotations, plans and builds its PodGroups: nothing at all when anything is refused. The one
     * judgement of a gang: the reconciler asks it of every plan ({@code pod} null), admission of the plan of one pod
     * (which it then computes even for a gang that is refused, to keep the tie of a gang that waits for the tiers or
     * keeps the PodGroup it had).
     */
    Judged judge(
            GangScope scope, Gang gang, TierCatalog tiers, QueueAccess queues, Snapshot snapshot, PodIdentity pod) {
        ParsedIntent parsed = AnnotationParser.parse(gang.sources(), tiers);
        if (!parsed.intent().managed()) {
            // what was said on the way (another scheduler's annotations left to it) is still said
            return new Judged(List.of(), parsed.findings(), List.of(), false);
        }
        boolean waiting = parsed.waitingForTiers();
        List<Finding> findings = new ArrayList<>(parsed.findings());
        findings.addAll(kindChecks(gang, parsed.intent()));
        if (!parsed.rejected() || waiting) {
            findings.addAll(queueChecks(gang, parsed.intent(), queues));
        }
        boolean rejected = Finding.anyRejection(findings);
        if (rejected && pod == null) {
            rejectOthers(scope, gang.subjects(), findings);
            return new Judged(List.of(), findings, List.of(), waiting);
        }
        List<Finding> notes = new ArrayList<>();
        List<GangPlan> plans = pod == null
                ? gang.plans().all(notes)
                : gang.plans().of(pod, notes).map(List::of).orElse(List.of());
        findings.addAll(notes);
        if (parsed.intent().sliceSize() != null) {
            plans = sliced(scope, gang, parsed.intent(), plans, findings);
        }
        if (rejected || Finding.anyRejection(findings)) {
            rejectOthers(scope, gang.subjects(), findings);
            return new Judged(List.of(), findings, plans, waiting);
        }
        if (parsed.intent().hasSubgroupTopology()
                && !plans.isEmpty()
                && plans.stream().allMatch(p -> p.subGroups().isEmpty() && p.level() == GangPlan.Level.GANG)) {
            findings.addAll(WorkloadReason.warnings(
                    WorkloadReason.SUBGROUP_SETTINGS_IGNORED,
                    gang.subjects(),
                    "",
                    Topobridge.SUBGROUP_HIGHEST_TIER + "/" + Topobridge.SUBGROUP_MODE
                            + " are ignored: this gang has no subgroups"));
        }
        List<DesiredPodGroup> built = build(gang, parsed.intent(), plans, tiers, queues, snapshot, findings);
        return new Judged(built, findings, plans, waiting);
    }

    /**
     * Builds the PodGroups of a gang's plans, choosing {@code auto} tiers and counting DRA devices on the way; adds
     * what was found to {@code findings}. Empty when any plan is refused: a gang gets all its PodGroups or none.
     */
    private List<DesiredPodGroup> build(
            Gang gang,
            GangIntent intent,
            List<GangPlan> plans,
            TierCatalog tiers,
            QueueAccess queues,
            Snapshot snapshot,
            List<Finding> findings) {
        List<DesiredPodGroup> built = new ArrayList<>();
        boolean refused = false;
        boolean auto = intent.autoTier() || intent.autoSubgroupTier();
        OnDomainLoss onLoss = OnDomainLoss.of(intent.onDomainLoss(), intent.domainLossGrace());
        for (GangPlan plan : plans) {
            DraDevices.GangDevices devices =
                    DraDevices.of(plan.roles(), plan.scope().namespace(), snapshot.lookup(), settings.deviceClasses());
            say(gang, DraDevices.findings(devices, plan.name(), gang.subjects()), findings);
            AutoTiers.Resolution resolution = AutoTiers.resolve(
                    plan,
                    intent,
                    tiers,
                    auto ? snapshot.domains() : TierDomains.NONE,
                    settings.autoTierMinDomains(),
                    gang.subjects(),
                    auto && waitsForRoom(plan, snapshot),
                    devices);
            say(gang, resolution.findings(), findings);
            if (resolution.refused()) {
                refused = true;
                continue;
            }
            Map<String, String> explanations = new java.util.TreeMap<>(resolution.annotations());
            String counted = DraDevices.annotation(devices.total(plan.roles()));
            if (counted != null) {
                // Volcano's overcommit plugin refuses to enqueue a gang whose minResources name a resource no node
                // advertises, and DRA-only nodes advertise none: the devices are said here, not reserved there
                explanations.put(Topobridge.DRA_DEVICES, counted);
            }
            if (onLoss.restarts()) {
                // the gang's policy for when its domain is lost is said on its PodGroup (the reconciler reads the
                // value)
                explanations.put(Topobridge.ON_DOMAIN_LOSS, onLoss.policy().value());
                if (onLoss.grace() != null) {
                    explanations.put(
                            Topobridge.DOMAIN_LOSS_GRACE, onLoss.grace().toSeconds() + "s");
                }
            }
            PodGroupBuilder.Built result = PodGroupBuilder.build(
                    plan,
                    resolution.intent(),
                    gang.subjects(),
                    queues.defaultQueue(),
                    explanations,
                    snapshot.requests());
            say(gang, result.findings(), findings);
            if (result.podGroup() == null) {
                refused = true;
                continue;
            }
            List<Finding> fit = new ArrayList<>(TierFit.findings(
                    plan,
                    intent,
                    result.podGroup(),
                    snapshot::domains,
                    gang.subjects(),
                    () -> WorkloadTranslator.kept(snapshot, plan.scope().namespace(), plan.name())));
            fit.addAll(ComputeDomains.findings(devices, result.podGroup(), tiers, gang.subjects()));
            say(gang, fit, findings);
            if (Finding.anyRejection(fit)) {
                refused = true;
            } else {
                built.add(result.podGroup().withOnDomainLoss(onLoss));
            }
        }
        return refused ? List.of() : built;
    }

    /** What was found, into {@code findings}: a preview only checks, what it would warn about is said once made. */
    private static void say(Gang gang, List<Finding> found, List<Finding> findings) {
        for (Finding f : found) {
            if (!gang.preview() || f.isRejection()) {
                findings.add(f);
            }
        }
    }

    /**
     * Whether a gang under {@code auto} may still wait for room in its chosen tier
     * ({@code topobridge.workloads.auto-wait-for-room}): while its PodGroup does not exist yet or was created less
     * than the wait ago. The PodGroup's own creation time is the clock's start, so every replica and every restart
     * agrees on it; a PodGroup whose creation time cannot be read has waited long enough.
     */
    private boolean waitsForRoom(GangPlan plan, Snapshot snapshot) {
        return !settings.autoWaitForRoom().isZero()
                && snapshot.lookup().podGroups(plan.scope().namespace()).stream()
                        .filter(pg -> plan.name().equals(pg.getMetadata().getName()))
                        .findFirst()
                        .map(pg -> settings.roomWaitEnd(pg.getMetadata().getCreationTimestamp())
                                .map(end -> end.isAfter(clock.instant()))
                                .orElse(false))
                        .orElse(true);
    }

    /**
     * The plans with their pods cut into slices by their index (the workload's own index label, else the one its
     * kind's controller gives); refused where the pods carry no index and the slices are required, or where the size
     * does not divide a gang (the last slice could never be whole).
     */
    private List<GangPlan> sliced(
            GangScope scope, Gang gang, GangIntent intent, List<GangPlan> plans, List<Finding> findings) {
        Optional<String> index = Optional.ofNullable(intent.podIndexLabel())
                .or(() -> scope instanceof GangScope.Single single
                        ? adapters.of(single.kind()).flatMap(KindAdapter::podIndexLabel)
                        : Optional.empty());
        int size = intent.sliceSize();
        if (index.isEmpty()) {
            boolean required = intent.effectiveSubgroupMode() == TopologyMode.HARD;
            String message = "slices of " + size + " pods need each pod's index, and the pods of "
                    + (scope instanceof GangScope.Single ? "this kind" : "a group of workloads")
                    + " carry none (name the label that does with " + Dialects.KAI_POD_INDEX_LABEL + ")";
            findings.addAll(
                    required
                            ? WorkloadReason.refusals(
                                    WorkloadReason.NO_POD_INDEX, gang.subjects(), Slices.LABEL, message)
                            : WorkloadReason.warnings(
                                    WorkloadReason.NO_POD_INDEX,
                                    gang.subjects(),
                                    Slices.LABEL,
                                    message + "; the slices are ignored"));
            return plans;
        }
        List<GangPlan> out = new ArrayList<>();
        for (GangPlan plan : plans) {
            GangPlan cut = Slices.cut(plan, size, index.get());
            long pods = PodRole.count(plan.roles(), false);
            if (cut != plan && pods % size != 0) {
                findings.addAll(WorkloadReason.refusals(
                        WorkloadReason.INVALID_ANNOTATION,
                        gang.subjects(),
                        Slices.LABEL,
                        "slices of " + size + " pods do not divide the " + pods + " pods of gang " + plan.name()
                                + ": the last slice could never be whole"));
            }
            out.add(cut);
        }
        return out;
    }

    /** Members of a group whose own annotations are fine are told why the group still has no PodGroup. */
    private static void rejectOthers(GangScope scope, List<ObjectRef> subjects, List<Finding> findings) {
        if (!(scope instanceof GangScope.Group)) {
            return;
        }
        Set<ObjectRef> rejected = new LinkedHashSet<>();
        findings.stream().filter(Finding::isRejection).forEach(f -> rejected.add(f.object()));
        List<ObjectRef> others =
                subjects.stream().filter(s -> !rejected.contains(s)).toList();
        String refused =
                String.join(", ", rejected.stream().map(ObjectRef::toString).toList());
        findings.addAll(WorkloadReason.refusals(
                WorkloadReason.GROUP_REJECTED,
                others,
                "",
                "group " + scope.name() + " has no PodGroup because " + refused + " was refused"));
    }

    /** A group named on a kind that cannot join one. */
    private List<Finding> kindChecks(Gang gang, GangIntent intent) {
        if (intent.group() == null) {
            return List.of();
        }
        List<ObjectRef> cannotJoin = gang.subjects().stream()
                .filter(s -> WorkloadKind.of(s.apiVersion(), s.kind())
                        .filter(k -> adapters.groupMember(k).isEmpty())
                        .isPresent())
                .toList();
        return WorkloadReason.refusals(
                WorkloadReason.INVALID_ANNOTATION,
                cannotJoin,
                Topobridge.GROUP,
                Topobridge.GROUP + "=" + UserText.quote(intent.group())
                        + ": only Deployments, StatefulSets and LeaderWorkerSets can join a group");
    }

    /**
     * A queue the namespace's admins do not let its workloads use: refused on every object that names it (each
     * member of a group is denied at admission for itself), or, when the gang takes the default queue, on every
     * workload of the gang. A namespace default-queue annotation that is no queue name is refused the same way.
     */
    private static List<Finding> queueChecks(Gang gang, GangIntent intent, QueueAccess queues) {
        List<Finding> out = new ArrayList<>();
        String queue = intent.queue();
        if (queue != null) {
            if (queues.allows(queue)) {
                return out;
            }
            Set<ObjectRef> told = new LinkedHashSet<>();
            for (AnnotationSource source : gang.sources()) {
                for (String key : List.of(Topobridge.QUEUE, VolcanoApi.QUEUE_NAME_ANNOTATION)) {
                    String raw = source.annotations().get(key);
                    if (raw == null || !told.add(source.object())) {
                        continue;
                    }
                    out.add(Finding.rejected(
                                    WorkloadReason.QUEUE_NOT_ALLOWED,
                                    source.object(),
                                    source.object() + ": "
                                            + key + "=" + UserText.quote(raw) + " (" + UserText.excerpt(source.where())
                                            + "): queue "
                                            + UserText.quote(queue) + " is not allowed here: " + queues.rule())
                            .withKey(key));
                }
            }
            return out;
        }
        if (queues.invalidDefault() != null) {
            return WorkloadReason.refusals(
                    WorkloadReason.INVALID_ANNOTATION,
                    gang.subjects(),
                    VolcanoApi.QUEUE_NAME_ANNOTATION + " (namespace)",
                    "names no queue, and namespace " + queues.namespace() + "'s default queue "
                            + VolcanoApi.QUEUE_NAME_ANNOTATION + "=" + UserText.quote(queues.invalidDefault())
                            + " is not a queue name (a DNS-1123 subdomain)");
        }
        if (!queues.allows(queues.defaultQueue())) {
            return WorkloadReason.refusals(
                    WorkloadReason.QUEUE_NOT_ALLOWED,
                    gang.subjects(),
                    Topobridge.QUEUE,
                    "names no queue, and the default queue " + UserText.quote(queues.defaultQueue())
                            + " is not allowed here: " + queues.rule() + "; set " + Topobridge.QUEUE);
        }
        return out;
    }
}
