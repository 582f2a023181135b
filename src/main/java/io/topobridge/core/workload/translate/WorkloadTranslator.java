package io.topobridge.core.workload.translate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.PodAssignment;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.annotation.AnnotationParser;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.Slices;
import io.topobridge.core.workload.kind.Gang;
import io.topobridge.core.workload.kind.PodOrigin;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadAdapters;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Pure function from annotated workloads and tiers to desired PodGroups and findings, and the pod and workload
 * answers admission gives from the very same translation. Work is done per {@link GangScope} and, inside it, per
 * {@link Gang}: the adapters of the {@link WorkloadAdapters} registry say what the gangs are; this class parses
 * their annotations, builds their PodGroups and judges them, the same way for every kind. A refused or
 * unreadable gang produces no PodGroup and leaves every other gang untouched.
 */
public final class WorkloadTranslator {

    private final WorkloadSettings settings;
    private final WorkloadAdapters adapters;
    private final GangJudge judge;

    /**
     * {@code clock}: what "now" is when a gang's wait for room under {@code auto} is measured; the edges give the
     * wall clock, a reconcile pass judges at its own time ({@link #at}).
     */
    public WorkloadTranslator(WorkloadSettings settings, WorkloadAdapters adapters, InstantSource clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.judge = new GangJudge(settings, adapters, Objects.requireNonNull(clock, "clock"));
    }

    /** The same translation at a fixed time: every gang of one reconcile pass is judged at the pass's time. */
    public WorkloadTranslator at(Instant now) {
        return new WorkloadTranslator(settings, adapters, InstantSource.fixed(now));
    }

    public WorkloadSettings settings() {
        return settings;
    }

    public WorkloadAdapters adapters() {
        return adapters;
    }

    /** A view of the cluster for one translation, bounded as the settings say. */
    private Snapshot snapshot(WorkloadLookup lookup) {
        return adapters.snapshot(lookup, settings.maxGangsPerWorkload());
    }

    /**
     * The workloads of a scope that carry the bridge's annotations, read without planning anything: what a scope that
     * gets no PodGroup in any case (its namespace did not opt in) reports on, at the cost of reading its annotations.
     */
    public List<ObjectRef> managedSubjects(GangScope scope, WorkloadLookup lookup) {
        List<Gang> gangs;
        try {
            gangs = adapters.gangs(scope, snapshot(lookup));
        } catch (RuntimeException e) {
            return List.of(scopeRef(scope));
        }
        return gangs.stream()
                .filter(g -> AnnotationParser.managed(g.sources()))
                .flatMap(g -> g.subjects().stream())
                .distinct()
                .toList();
    }

    /**
     * The scope a workload object belongs to: itself, its group, or the workload that made it (a RoleSet's
     * StormService, an LWS's DisaggregatedSet, a PodSet's RoleSet). Empty for objects that are never a gang of
     * their own (ReplicaSets, LWS StatefulSets).
     */
    public Optional<GangScope> scopeOf(HasMetadata object, WorkloadLookup lookup) {
        return snapshot(lookup).scopeOf(object);
    }

    /** Translates many scopes at once, reading each object's templates only once. */
    public List<ScopeResult> translateScopes(Collection<GangScope> scopes, TierCatalog tiers, WorkloadLookup lookup) {
        Snapshot snapshot = snapshot(lookup);
        return scopes.stream().map(s -> translateScope(s, tiers, snapshot)).toList();
    }

    ScopeResult translateScope(GangScope scope, TierCatalog tiers, Snapshot snapshot) {
        List<Gang> gangs;
        try {
            gangs = adapters.gangs(scope, snapshot);
        } catch (RuntimeException e) {
            ObjectRef ref = scopeRef(scope);
            return new ScopeResult(scope, List.of(ref), List.of(), unreadable(List.of(ref), e));
        }
        Set<ObjectRef> subjects = new LinkedHashSet<>();
        gangs.forEach(g -> subjects.addAll(g.subjects()));
        List<DesiredPodGroup> podGroups = new ArrayList<>();
        Set<Finding> findings = new LinkedHashSet<>();
        QueueAccess queues = QueueAccess.of(scope.namespace(), snapshot.lookup(), settings);
        for (Gang gang : gangs) {
            GangJudge.Judged judged;
            try {
                judged = judge.judge(scope, gang, tiers, queues, snapshot, null);
            } catch (RuntimeException e) {
                // one unreadable gang (a wrong-typed field, an unparsable quantity) costs only itself
                findings.addAll(unreadable(gang.subjects(), e));
                continue;
            }
            findings.addAll(judged.findings());
            if (!gang.preview()) {
                podGroups.addAll(judged.podGroups());
            }
        }
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(Finding.ORDER);
        return new ScopeResult(scope, new ArrayList<>(subjects), podGroups, sorted);
    }

    private static List<Finding> unreadable(List<ObjectRef> subjects, RuntimeException e) {
        return WorkloadReason.refusals(
                WorkloadReason.UNREADABLE_WORKLOAD,
                subjects,
                "",
                "cannot be read: " + UserText.excerpt(e.getMessage()));
    }

    private static ObjectRef scopeRef(GangScope scope) {
        if (scope instanceof GangScope.Single single) {
            return new ObjectRef(
                    single.kind().apiVersion(), single.kind().kind(), scope.namespace(), scope.name(), null);
        }
        return new ObjectRef(null, GangScope.GROUP, scope.namespace(), scope.name(), null);
    }

    /**
     * What the reconciler would say about one workload, as the validating webhook asks it: the same translation,
     * over the cluster as it would be with {@code workload} admitted, keeping the findings about that object.
     * A group refused because of another member is that member's finding, not this object's.
     */
    public List<Finding> validate(HasMetadata workload, TierCatalog tiers, WorkloadLookup lookup) {
        Optional<Workload> view = Workload.of(workload);
        if (view.isEmpty()) {
            return List.of();
        }
        Snapshot snapshot = snapshot(lookup.withObjects(List.of(workload)));
        Optional<GangScope> scope = snapshot.scopeOf(workload);
        if (scope.isEmpty()) {
            return List.of();
        }
        ObjectRef ref = view.get().ref();
        return translateScope(scope.get(), tiers, snapshot).findings().stream()
                .filter(f -> sameObject(f.object(), ref) && f.reason() != WorkloadReason.GROUP_REJECTED)
                .toList();
    }

    private static boolean sameObject(ObjectRef a, ObjectRef b) {
        return a.kind().equals(b.kind())
                && a.name().equals(b.name())
                && Objects.requireNonNullElse(a.namespace(), "").equals(Objects.requireNonNullElse(b.namespace(), ""));
    }

    /**
     * A pod's tie as admission makes it. {@code assignment}: the gang a pod being created belongs to, found from its
     * labels and owner chain through {@code lookup}, and taken from the plan that counts it: its PodGroup, task-spec
     * and labels; null for a pod of no managed workload, or of a gang that is refused (unless it waits only for the
     * tiers, or keeps the PodGroup it had: the tie can only be made at creation). A pod that already names a PodGroup
     * keeps it. {@code gang}: the gang it belongs to, whatever group name it carries (null where it is left untied).
     * {@code findings}: for a pod of a managed gang that is left untied because its place in the gang cannot be known
     * (a pod of a LeaderWorkerSet with {@code groupIdentity: Hash} that carries no group key), why.
     */
    public record Tie(PodAssignment assignment, PodGang gang, List<Finding> findings) {
        static final Tie NONE = new Tie(null, null, List.of());

        public Tie {
            findings = List.copyOf(findings);
        }

        public Optional<PodAssignment> assigned() {
            return Optional.ofNullable(assignment);
        }
    }

    /**
     * The gang a pod belongs to, whatever group name it carries: its scope and the PodGroup whose plan counts it, as
     * {@link #tie} would tie it at creation. Empty where {@code tie} would leave a new pod untouched.
     */
    public Optional<PodGang> gangOf(Pod pod, TierCatalog tiers, WorkloadLookup lookup) {
        return Optional.ofNullable(tie(pod, tiers, lookup).gang());
    }

    /** A pod's gang: the scope it belongs to and the PodGroup its plan counts it in. */
    public record PodGang(GangScope scope, String podGroup) {}

    /** The tie of a pod being created, with what was found about a pod of a managed gang it leaves untied. */
    public Tie tie(Pod pod, TierCatalog tiers, WorkloadLookup lookup) {
        if (pod == null || pod.getMetadata() == null) {
            return Tie.NONE;
        }
        try {
            return tie(pod, tiers, snapshot(lookup));
        } catch (RuntimeException e) {
            // an unreadable workload is reported by the reconciler; admission must not fail on it
            return Tie.NONE;
        }
    }

    private Tie tie(Pod pod, TierCatalog tiers, Snapshot snapshot) {
        Optional<PodOrigin> origin = adapters.first(a -> a.originOf(pod, snapshot));
        if (origin.isEmpty()) {
            return Tie.NONE;
        }
        Optional<GangScope> scope = snapshot.scopeOf(origin.get().workload());
        if (scope.isEmpty()) {
            return Tie.NONE;
        }
        Optional<Gang> gang = adapters.gangOf(scope.get(), origin.get().identity(), snapshot);
        if (gang.isEmpty()) {
            return Tie.NONE;
        }
        QueueAccess queues = QueueAccess.of(scope.get().namespace(), snapshot.lookup(), settings);
        GangJudge.Judged judged = judge.judge(
                scope.get(), gang.get(), tiers, queues, snapshot, origin.get().identity());
        if (judged.plans().isEmpty()) {
            return new Tie(
                    null,
                    null,
                    judged.findings().stream()
                            // what a judged gang says about one pod it cannot place
                            .filter(f -> f.reason() == WorkloadReason.GROUP_KEY_UNKNOWN)
                            .toList());
        }
        GangPlan plan = judged.plans().get(0);
        PodRole role = plan.roleOf(origin.get().identity()).orElseThrow();
        // a gang waiting for the topology gets its PodGroup as soon as the tiers are known: tie its pods now,
        // since the link can only be made at creation (an untied pod would run outside the gang for good)
        String namespace = Objects.requireNonNullElse(pod.getMetadata().getNamespace(), "");
        if (judged.refused()
                && !judged.waitingForTiers()
                && !judged.waitsForDomain()
                && !kept(snapshot, namespace, plan.name())) {
            return Tie.NONE;
        }
        Map<String, String> labels = new java.util.TreeMap<>(role.podLabels());
        labels.putAll(Slices.podLabels(
                plan,
                Objects.requireNonNullElse(pod.getMetadata().getLabels(), Map.of()),
                origin.get().identity()));
        Map<String, String> annotations =
                Objects.requireNonNullElse(pod.getMetadata().getAnnotations(), Map.of());
        String name = annotations.get(VolcanoApi.GROUP_NAME_ANNOTATION);
        String task = annotations.get(VolcanoApi.TASK_SPEC_ANNOTATION);
        return new Tie(
                new PodAssignment(
                        name != null && !name.isBlank() ? name : plan.name(),
                        task != null && !task.isBlank() ? task : role.taskSpec(),
                        labels),
                new PodGang(scope.get(), plan.name()),
                List.of());
    }

    /**
     * Whether the PodGroup a refused gang had is still there (the controller keeps it until the annotations are
     * fixed or removed), so its new pods can still join it; whether a gang's PodGroup exists.
     */
    static boolean kept(Snapshot snapshot, String namespace, String name) {
        return snapshot.lookup().podGroups(namespace).stream()
                .anyMatch(pg -> name.equals(pg.getMetadata().getName()));
    }

    /**
     * The scope a PodGroup belongs to: from the bridge's annotation on its own PodGroups, from the owner chain on
     * PodGroups AIBrix or LWS made (so their appearance triggers adoption).
     */
    public Optional<GangScope> scopeOfPodGroup(HasMetadata podGroup, WorkloadLookup lookup) {
        var meta = podGroup.getMetadata();
        if (meta == null || meta.getNamespace() == null) {
            return Optional.empty();
        }
        if (Topobridge.managed(podGroup)) {
            String key =
                    meta.getAnnotations() == null ? null : meta.getAnnotations().get(PodGroupBuilder.GANG_ANNOTATION);
            return GangScope.parse(meta.getNamespace(), key);
        }
        Snapshot snapshot = snapshot(lookup);
        return adapters.first(a -> a.scopeOfPodGroup(podGroup, snapshot));
    }

    /**
     * The topology fields the bridge wants on a PodGroup another controller is writing (AIBrix rewrites its whole
     * spec on every reconcile; LWS creates its own in the same pass as the pods), as a mutating webhook on that
     * write adds them: the desired adopted PodGroup of that name, translated over the cluster with the incoming
     * PodGroup in it. Empty for a PodGroup the bridge does not adopt, or a gang that is refused.
     */
    public Optional<DesiredPodGroup> adoptedFields(HasMetadata podGroup, TierCatalog tiers, WorkloadLookup lookup) {
        var meta = podGroup.getMetadata();
        if (meta == null || meta.getNamespace() == null || meta.getName() == null) {
            return Optional.empty();
        }
        WorkloadLookup withIt = lookup.withObjects(List.of(podGroup));
        Optional<GangScope> scope = scopeOfPodGroup(podGroup, withIt);
        if (scope.isEmpty()) {
            return Optional.empty();
        }
        try {
            return translateScope(scope.get(), tiers, snapshot(withIt)).podGroups().stream()
                    .filter(pg -> pg.ownership() == DesiredPodGroup.Ownership.ADOPTED
                            && pg.name().equals(meta.getName())
                            && pg.namespace().equals(meta.getNamespace()))
                    .findFirst();
        } catch (RuntimeException e) {
            // an unreadable workload is reported by the reconciler; admission must not fail on it
            return Optional.empty();
        }
    }
}
