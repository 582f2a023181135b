package io.topobridge.core.workload.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.Achieved;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.NativeGang;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.changes.ObservedPodGroup;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.changes.Reservations;
import io.topobridge.core.workload.changes.UntiedPods;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.scaling.AutoscalerFit;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The one reconcile step, pure: from a gang scope's workloads (through a {@link WorkloadLookup}: the controller's
 * caches or {@code render}'s files), the cluster's facts and a time, the writes that bring its PodGroups in line,
 * its findings and when to look again. Namespace opt-in, translation, queues, bounds and reservations, a group's
 * wait for its members and {@code auto}'s wait for room are all decided here, once, so the controller and
 * {@code render} cannot disagree: the controller only carries the writes out and publishes the findings.
 */
public final class ScopeReconciler {

    /** Margin after a wait ends before the scope is looked at again, so the wait has surely ended then. */
    static final Duration AFTER_WAIT = Duration.ofMillis(200);

    private final WorkloadTranslator translator;
    private final ReconcileSettings settings;
    private final Reservations.Settings reservations;

    public ScopeReconciler(
            WorkloadTranslator translator, ReconcileSettings settings, Reservations.Settings reservations) {
        this.translator = Objects.requireNonNull(translator, "translator");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.reservations = Objects.requireNonNull(reservations, "reservations");
    }

    public WorkloadTranslator translator() {
        return translator;
    }

    public ReconcileSettings settings() {
        return settings;
    }

    /**
     * Reconciles scopes over one view of the cluster, in the given order; each namespace's pods are walked once for
     * all of them.
     */
    public List<Outcome> reconcile(Collection<GangScope> scopes, WorkloadLookup cluster, PassFacts facts) {
        // the pods are the only record of some gangs (the groups of an LWS with groupIdentity: Hash)
        WorkloadLookup lookup = cluster.withPods(facts.cluster()::livePods);
        List<GangScope> allowed =
                scopes.stream().filter(s -> optedIn(s.namespace(), lookup)).toList();
        Map<GangScope, ScopeResult> translated = new HashMap<>();
        for (ScopeResult result : translator.at(facts.now()).translateScopes(allowed, facts.tiers(), lookup)) {
            translated.put(result.scope(), result);
        }
        List<ScopeResult> results = scopes.stream()
                .map(s -> Optional.ofNullable(translated.get(s)).orElseGet(() -> notOptedIn(s, lookup, facts)))
                .toList();
        Map<GangScope, List<UntiedPods.PodTie>> ties = podTies(results, lookup, facts);
        Planned planned = new Planned();
        // the ledger as the earlier scopes of the pass left it: restarts under way count across the cluster
        DomainLossRestarts.Ledger ledger = facts.cluster().ledger();
        List<Outcome> out = new ArrayList<>();
        for (ScopeResult result : results) {
            Outcome outcome =
                    plan(result, lookup, facts, ties.getOrDefault(result.scope(), List.of()), planned, ledger);
            planned.add(outcome);
            if (ledger != null) {
                ledger = ledger.with(outcome.remembered());
            }
            out.add(outcome);
        }
        return out;
    }

    /**
     * The writes planned by the earlier scopes of one pass, by namespace: the later scopes count them (a namespace's
     * PodGroup limit and reservations) as the writer will have carried them out.
     */
    private static final class Planned {
        /** By namespace and name: the PodGroup as written, empty when deleted. */
        private final Map<String, Map<String, Optional<ObservedPodGroup>>> byNamespace = new HashMap<>();

        void add(Outcome outcome) {
            for (PodGroupChanges.Step step : outcome.steps()) {
                if (step instanceof PodGroupChanges.Apply apply) {
                    DesiredPodGroup pg = apply.podGroup();
                    byNamespace
                            .computeIfAbsent(pg.namespace(), n -> new HashMap<>())
                            .put(pg.name(), Optional.of(ObservedPodGroup.planned(pg, outcome.scope())));
                } else if (step instanceof PodGroupChanges.Delete delete) {
                    byNamespace
                            .computeIfAbsent(delete.namespace(), n -> new HashMap<>())
                            .put(delete.name(), Optional.empty());
                }
            }
        }

        List<ObservedPodGroup> over(String namespace, List<ObservedPodGroup> observed) {
            Map<String, Optional<ObservedPodGroup>> planned = byNamespace.get(namespace);
            if (planned == null) {
                return observed;
            }
            Map<String, ObservedPodGroup> out = new LinkedHashMap<>();
            observed.forEach(pg -> out.put(pg.name(), pg));
            planned.forEach((name, pg) -> pg.ifPresentOrElse(
                    now -> out.merge(name, now, (was, is) -> was.ours() == is.ours() ? is : was),
                    () -> out.remove(name)));
            return new ArrayList<>(out.values());
        }
    }

    /**
     * Every scope the given workload objects and PodGroups belong to, sorted: what a full pass (or {@code render})
     * reconciles.
     */
    public List<GangScope> scopesOf(
            Collection<? extends HasMetadata> workloads,
            Collection<? extends HasMetadata> podGroups,
            WorkloadLookup lookup) {
        Set<GangScope> out = new LinkedHashSet<>();
        workloads.forEach(object -> translator.scopeOf(object, lookup).ifPresent(out::add));
        observe(podGroups, lookup).stream()
                .map(ObservedPodGroup::gang)
                .filter(Objects::nonNull)
                .forEach(out::add);
        return out.stream().sorted(Comparator.comparing(GangScope::toString)).toList();
    }

    /**
     * After a full pass, the fields the bridge still holds on other controllers' PodGroups that no scope wants any more
     * (e.g. their workload was deleted while the bridge was down) are given back.
     */
    public List<PodGroupChanges.Step> unclaimed(
            Collection<? extends HasMetadata> allPodGroups, WorkloadLookup lookup, List<Outcome> outcomes) {
        Set<String> wanted = new HashSet<>();
        for (Outcome outcome : outcomes) {
            outcome.translation().podGroups().forEach(p -> wanted.add(p.namespace() + "/" + p.name()));
        }
        return observe(allPodGroups, lookup).stream()
                .filter(pg ->
                        pg.ownsFields() && pg.gang() == null && !wanted.contains(pg.namespace() + "/" + pg.name()))
                .<PodGroupChanges.Step>map(pg -> new PodGroupChanges.Release(pg.namespace(), pg.name()))
                .toList();
    }

    /** Whether the bridge makes PodGroups in a namespace: every namespace, or the opted-in ones (unknown ones count). */
    public boolean optedIn(String namespace, WorkloadLookup lookup) {
        if (!settings.requireNamespaceOptIn()) {
            return true;
        }
        Map<String, String> labels = lookup.namespaceLabels(namespace);
        return labels == null || "true".equals(labels.get(settings.namespaceLabel()));
    }

    /**
     * A managed gang in a namespace that did not opt in gets no PodGroup (the pod webhook never sees its pods, so they
     * would never join it, while the PodGroup held its minResources in the queue) and says why. Only its annotations
     * are read: nothing is planned for it, whatever its size.
     */
    private ScopeResult notOptedIn(GangScope scope, WorkloadLookup lookup, PassFacts facts) {
        List<ObjectRef> subjects = translator.managedSubjects(scope, lookup);
        if (subjects.isEmpty()) {
            return ScopeResult.empty(scope);
        }
        List<Finding> findings = WorkloadReason.warnings(
                WorkloadReason.NAMESPACE_NOT_OPTED_IN,
                subjects,
                "",
                "namespace " + scope.namespace() + " does not carry " + settings.namespaceLabel() + "=true, so the"
                        + " bridge makes no PodGroup here (the pod webhook would never tie its pods to one); label the"
                        + " namespace to opt in");
        return new ScopeResult(scope, subjects, List.of(), findings);
    }

    private Outcome plan(
            ScopeResult result,
            WorkloadLookup lookup,
            PassFacts facts,
            List<UntiedPods.PodTie> ties,
            Planned planned,
            DomainLossRestarts.Ledger ledger) {
        GangScope scope = result.scope();
        List<HasMetadata> podGroups = lookup.podGroups(scope.namespace());
        Optional<Duration> assembling = assemblyLeft(result, podGroups, lookup, facts.now());
        if (assembling.isPresent()) {
            return new Outcome(result, List.of(), List.of(), assembling.get().plus(AFTER_WAIT), true, Map.of());
        }
        List<ObservedPodGroup> observed = planned.over(scope.namespace(), observe(podGroups, lookup));
        PodGroupChanges.Bounds bounds = new PodGroupChanges.Bounds(
                facts.clusterAllocatable(),
                translator.settings().maxPodGroupsPerNamespace(),
                Reservations.of(reservations, lookup.resourceQuotas(scope.namespace()), facts.clusterAllocatable()));
        PodGroupChanges.Plan plan = PodGroupChanges.plan(
                result, observed, facts.queues(), placed(result, facts), facts.inCluster(), bounds);
        List<Finding> findings = new ArrayList<>(plan.findings());
        findings.addAll(UntiedPods.findings(result, ties));
        findings.addAll(AutoscalerFit.findings(result, lookup, translator.adapters()));
        List<PodGroupChanges.Step> steps = new ArrayList<>(plan.steps());
        Map<String, DomainLossRestarts.Entry> remembered = new HashMap<>();
        Duration requeue = roomWaitEnds(result, podGroups, facts.now());
        for (DesiredPodGroup desired : result.podGroups()) {
            DomainLossRestarts.Decision recovered = recovery(result, desired, facts, ledger, findings);
            findings.addAll(recovered.findings());
            // a restart is a write like the others, carried out after the PodGroups'
            recovered.restart().ifPresent(restart -> steps.add(new PodGroupChanges.RestartGang(restart)));
            if (recovered.remembered() != null) {
                String key = desired.namespace() + "/" + desired.name();
                remembered.put(key, recovered.remembered());
                ledger = ledger.with(Map.of(key, recovered.remembered()));
            }
            Duration recheck = recovered.recheckAfter();
            if (recheck != null) {
                recheck = recheck.plus(AFTER_WAIT);
                requeue = requeue == null || recheck.compareTo(requeue) < 0 ? recheck : requeue;
            }
        }
        findings.sort(Finding.ORDER);
        return new Outcome(result, steps, findings, requeue, false, remembered);
    }

    /**
     * A running hard-tier gang short of pods: whether its domain can give them back, said on its workloads and
     * PodGroup (in {@code findings}); and, for a gang with {@code topobridge.io/on-domain-loss: restart} whose domain
     * has been lost for its grace, the restart ({@link DomainLossRestarts}). A gang whose pods all run on nodes that
     * are ready costs one look at its pods (no capacity). What the ledger remembers of the gang next comes with the
     * decision (none without a ledger).
     */
    private DomainLossRestarts.Decision recovery(
            ScopeResult result,
            DesiredPodGroup desired,
            PassFacts facts,
            DomainLossRestarts.Ledger ledger,
            List<Finding> findings) {
        ClusterFacts cluster = facts.cluster();
        Optional<GangView> gang = cluster.gang(desired.namespace(), desired.name());
        if (gang.isEmpty()) {
            return DomainLossRestarts.Decision.NOTHING;
        }
        Supplier<Capacity> capacity = () -> cluster.capacity()
                .forPods(gang.get().pods().stream()
                        .map(PodView::effectiveTolerations)
                        .toList());
        Optional<GangDomain> domain = Optional.empty();
        if (GangDomain.shortOfPods(gang.get(), cluster::node)) {
            domain = GangDomain.of(gang.get(), capacity.get());
            findings.addAll(DomainLossRestarts.stuck(desired.namespace(), desired.name(), result.subjects(), domain));
        }
        if (ledger == null) {
            return DomainLossRestarts.Decision.NOTHING;
        }
        return DomainLossRestarts.decide(
                desired.namespace(),
                desired.name(),
                result.subjects(),
                gang.get(),
                domain,
                desired.onDomainLoss().policy(),
                desired.onDomainLoss().graceOr(settings.restarts().grace()),
                capacity,
                settings.restarts().maxConcurrent(),
                ledger,
                facts.now());
    }

    /**
     * How long a group's first PodGroup still waits for the group's other members: workloads applied together are
     * seen one by one, and a PodGroup made from the first alone would let Volcano start that member as a gang of its
     * own and place the next member's pods before the PodGroup had their subgroup. The wait is counted from the
     * oldest member's creation (plus a second when that time is written to the second, as the API server writes it,
     * so the wait is never shorter than configured), so every replica and every restart agrees on it; members whose
     * creation is not known
     * (a file given to {@code render}) are not waited for. Pods naming a PodGroup that does not exist yet are not
     * scheduled, so waiting is safe; once the group has its PodGroup, changes are written at once.
     */
    private Optional<Duration> assemblyLeft(
            ScopeResult result, List<HasMetadata> podGroups, WorkloadLookup lookup, Instant now) {
        GangScope scope = result.scope();
        if (!(scope instanceof GangScope.Group)
                || settings.groupAssembly().isZero()
                || result.podGroups().isEmpty()) {
            return Optional.empty();
        }
        for (HasMetadata pg : podGroups) {
            Map<String, String> annotations = pg.getMetadata().getAnnotations();
            if (annotations != null && scope.key().equals(annotations.get(PodGroupBuilder.GANG_ANNOTATION))) {
                return Optional.empty();
            }
        }
        Optional<Instant> oldest = result.subjects().stream()
                .flatMap(s -> WorkloadKind.of(s.apiVersion(), s.kind())
                        .flatMap(k -> lookup.get(k, s.namespace(), s.name()))
                        .flatMap(o -> WorkloadSettings.timestamp(o.getMetadata().getCreationTimestamp()))
                        .stream())
                .min(Comparator.naturalOrder());
        // creation times are written to the second: the member may have been made up to a second later
        return oldest.map(o ->
                        Duration.between(now, o.plus(settings.groupAssembly()).plusSeconds(o.getNano() == 0 ? 1 : 0)))
                .filter(left -> !left.isNegative() && !left.isZero());
    }

    /**
     * When an {@code auto} gang's wait for room in its chosen tier ends (it may turn {@code soft} then): the scope is
     * due again at that moment, though nothing changes; null when no wait of the scope ends in the future.
     */
    private Duration roomWaitEnds(ScopeResult result, List<HasMetadata> podGroups, Instant now) {
        Duration wait = translator.settings().autoWaitForRoom();
        if (wait.isZero()) {
            return null;
        }
        Map<String, HasMetadata> byName = new HashMap<>();
        podGroups.forEach(pg -> byName.put(pg.getMetadata().getName(), pg));
        return result.podGroups().stream()
                .filter(d -> d.annotations().containsKey(Topobridge.CHOSEN_TIER)
                        || d.annotations().containsKey(Topobridge.CHOSEN_SUBGROUP_TIER))
                .map(d -> byName.get(d.name()))
                .flatMap(current -> (current == null
                                ? Optional.of(now.plus(wait))
                                : translator
                                        .settings()
                                        .roomWaitEnd(current.getMetadata().getCreationTimestamp()))
                        .stream())
                .filter(end -> end.isAfter(now))
                .map(end -> Duration.between(now, end).plus(AFTER_WAIT))
                .min(Comparator.naturalOrder())
                .orElse(null);
    }

    private static Map<String, Achieved> placed(ScopeResult result, PassFacts facts) {
        Map<String, Achieved> out = new HashMap<>();
        result.podGroups()
                .forEach(d -> facts.cluster().achieved(d.namespace(), d.name()).ifPresent(a -> out.put(d.name(), a)));
        return out;
    }

    /**
     * The live pods of the scopes' gangs that do not name a PodGroup of the bridge's, each with the PodGroup its gang's
     * plan counts it in; one walk over each namespace's pods serves every scope.
     */
    private Map<GangScope, List<UntiedPods.PodTie>> podTies(
            List<ScopeResult> results, WorkloadLookup lookup, PassFacts facts) {
        Map<String, Set<GangScope>> byNamespace = results.stream()
                .filter(result -> !result.podGroups().isEmpty())
                .map(ScopeResult::scope)
                .collect(Collectors.groupingBy(GangScope::namespace, TreeMap::new, Collectors.toSet()));
        Map<GangScope, List<UntiedPods.PodTie>> out = new HashMap<>();
        WorkloadTranslator atPass = translator.at(facts.now());
        byNamespace.forEach((namespace, scopes) -> {
            List<Pod> pods = facts.cluster().livePods(namespace);
            if (pods.isEmpty()) {
                return;
            }
            Map<String, HasMetadata> podGroups = new HashMap<>();
            lookup.podGroups(namespace)
                    .forEach(pg -> podGroups.put(pg.getMetadata().getName(), pg));
            for (Pod pod : pods) {
                Map<String, String> annotations = pod.getMetadata().getAnnotations();
                String group = annotations == null ? null : annotations.get(VolcanoApi.GROUP_NAME_ANNOTATION);
                HasMetadata pg = group == null ? null : podGroups.get(group);
                if (pg != null && (Topobridge.managed(pg) || ObservedPodGroup.ownsFields(pg))) {
                    continue; // tied to a gang of the bridge's
                }
                // a pod in a Kubernetes gang of its own was left alone at admission on purpose: said, not untied
                String nativeGang = NativeGang.of(pod).map(NativeGang::describe).orElse(null);
                atPass.gangOf(pod, facts.tiers(), lookup)
                        .filter(gang -> scopes.contains(gang.scope()))
                        .ifPresent(gang -> out.computeIfAbsent(gang.scope(), s -> new ArrayList<>())
                                .add(new UntiedPods.PodTie(
                                        pod.getMetadata().getName(), group, gang.podGroup(), nativeGang)));
            }
        });
        return out;
    }

    /** PodGroups as the planner sees them; the scope of a foreign one is looked up only where it matters. */
    public List<ObservedPodGroup> observe(Collection<? extends HasMetadata> podGroups, WorkloadLookup lookup) {
        List<ObservedPodGroup> out = new ArrayList<>();
        for (HasMetadata pg : podGroups) {
            boolean ours = Topobridge.managed(pg);
            boolean owns = !ours && ObservedPodGroup.ownsFields(pg);
            GangScope scope =
                    ours || owns ? translator.scopeOfPodGroup(pg, lookup).orElse(null) : null;
            out.add(ObservedPodGroup.of(pg, ours, owns, scope));
        }
        return out;
    }
}
