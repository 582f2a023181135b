package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.Topobridge;
import io.topobridge.core.admission.PodAssignment;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.annotation.AnnotationParser;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.annotation.GangIntent;
import io.topobridge.core.workload.annotation.ParsedIntent;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import io.topobridge.core.workload.kind.AibrixAdapter;
import io.topobridge.core.workload.kind.DisaggregatedSetAdapter;
import io.topobridge.core.workload.kind.LeaderWorkerSetAdapter;
import io.topobridge.core.workload.kind.Member;
import io.topobridge.core.workload.kind.ReplicatedAdapter;
import io.topobridge.core.workload.kind.Workload;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Pure function from annotated workloads and tiers to desired PodGroups and findings, and the pod and
 * workload checks admission makes with the same parser. Work is done per {@link GangScope}: a top-level
 * workload or a {@code topobridge.io/group}; a rejected scope produces no PodGroup and leaves every other
 * scope untouched.
 */
public final class WorkloadTranslator {

    private static final Set<WorkloadKind> GROUPABLE = Set.of(WorkloadKind.DEPLOYMENT, WorkloadKind.STATEFUL_SET,
            WorkloadKind.LEADER_WORKER_SET);

    private final WorkloadSettings settings;

    public WorkloadTranslator(WorkloadSettings settings) {
        this.settings = settings;
    }

    public WorkloadSettings settings() {
        return settings;
    }

    /** Translates every scope the given workloads belong to (the given objects win over {@code lookup}'s). */
    public TranslationResult translate(Collection<? extends HasMetadata> workloads, TierCatalog tiers,
            WorkloadLookup lookup) {
        var run = new Run(new OverlayLookup(workloads, lookup));
        Set<GangScope> scopes = new LinkedHashSet<>();
        for (HasMetadata object : workloads) {
            run.scopeOf(object).ifPresent(scopes::add);
        }
        List<DesiredPodGroup> podGroups = new ArrayList<>();
        Set<Finding> findings = new LinkedHashSet<>();
        scopes.stream().sorted(Comparator.comparing(GangScope::toString)).forEach(scope -> {
            ScopeResult result = translateScope(scope, tiers, run);
            podGroups.addAll(result.podGroups());
            findings.addAll(result.findings());
        });
        return new TranslationResult(podGroups, new ArrayList<>(findings));
    }

    /**
     * The scope a workload object belongs to: itself, its group, or the workload that made it (a RoleSet's
     * StormService, an LWS's DisaggregatedSet, a PodSet's RoleSet). Empty for objects that are never a gang
     * of their own (ReplicaSets, LWS StatefulSets).
     */
    public Optional<GangScope> scopeOf(HasMetadata object, WorkloadLookup lookup) {
        return new Run(lookup).scopeOf(object);
    }

    private static OwnerReference podOwner(Workload w) {
        var refs = w.metadata().getOwnerReferences();
        if (refs != null) {
            for (OwnerReference ref : refs) {
                if ("Pod".equals(ref.getKind()) && "v1".equals(ref.getApiVersion())) {
                    return ref;
                }
            }
        }
        return null;
    }

    private static GangScope groupOrOwn(Workload w) {
        String group = groupOf(w);
        return group != null ? GangScope.group(w.namespace(), group) : GangScope.of(w.kind(), w.namespace(), w.name());
    }

    /** The valid group a Deployment, StatefulSet or LWS names (all its sources agreeing), else null. */
    static String groupOf(Workload w) {
        if (!GROUPABLE.contains(w.kind())) {
            return null;
        }
        Set<String> values = AnnotationParser.rawValues(sources(w), Topobridge.GROUP);
        if (values.size() != 1) {
            return null;
        }
        String value = values.iterator().next();
        return AnnotationParser.validGroup(value) ? value : null;
    }

    /** The annotation sources of a workload: its metadata and its pod templates. */
    static List<AnnotationSource> sources(Workload w) {
        return w.memo("sources", () -> readSources(w));
    }

    private static List<AnnotationSource> readSources(Workload w) {
        return switch (w.kind()) {
            case DEPLOYMENT, STATEFUL_SET -> ReplicatedAdapter.sources(w);
            case LEADER_WORKER_SET -> LeaderWorkerSetAdapter.sources(w);
            case DISAGGREGATED_SET -> DisaggregatedSetAdapter.sources(w);
            case STORM_SERVICE -> AibrixAdapter.stormServiceSources(w);
            case ROLE_SET -> AibrixAdapter.roleSetSources(w);
            case POD_SET -> AibrixAdapter.podSetSources(w);
            case REPLICA_SET -> List.of(w.metadataSource());
        };
    }

    /** One set of annotation sources and the plans they govern. */
    private record Unit(List<AnnotationSource> sources, List<ObjectRef> subjects, PlanSupplier plans) {
    }

    /** Plans are computed only once the unit's annotations are known to be valid. */
    @FunctionalInterface
    private interface PlanSupplier {
        List<GangPlan> get(GangIntent intent, List<Finding> findings);
    }

    /** Translates one scope: every PodGroup it should have, and its findings. */
    public ScopeResult translateScope(GangScope scope, TierCatalog tiers, WorkloadLookup lookup) {
        return translateScope(scope, tiers, new Run(lookup));
    }

    /** Translates many scopes at once, reading each object's templates only once. */
    public List<ScopeResult> translateScopes(Collection<GangScope> scopes, TierCatalog tiers, WorkloadLookup lookup) {
        var run = new Run(lookup);
        List<ScopeResult> out = new ArrayList<>();
        for (GangScope scope : scopes) {
            out.add(translateScope(scope, tiers, run));
        }
        return out;
    }

    private ScopeResult translateScope(GangScope scope, TierCatalog tiers, Run run) {
        WorkloadLookup lookup = run.lookup;
        List<Unit> units = new ArrayList<>();
        List<ObjectRef> subjects = new ArrayList<>();
        Set<Finding> findings = new LinkedHashSet<>();
        try {
            if (scope.isGroup()) {
                groupUnit(scope, run, units, subjects);
            } else {
                kindUnits(scope, run, units, subjects, findings);
            }
        } catch (RuntimeException e) {
            return unreadable(scope, subjects, e);
        }
        List<DesiredPodGroup> podGroups = new ArrayList<>();
        for (Unit unit : units) {
            ParsedIntent parsed = AnnotationParser.parse(unit.sources(), tiers);
            if (!parsed.intent().managed()) {
                continue;
            }
            findings.addAll(parsed.findings());
            List<Finding> checks = kindChecks(unit, parsed.intent());
            findings.addAll(checks);
            if (parsed.rejected() || checks.stream().anyMatch(Finding::isRejection)) {
                rejectOthers(scope, unit.subjects(), findings);
                continue;
            }
            List<GangPlan> plans;
            List<Finding> planFindings = new ArrayList<>();
            try {
                plans = unit.plans().get(parsed.intent(), planFindings);
            } catch (RuntimeException e) {
                return unreadable(scope, subjects, e);
            }
            findings.addAll(planFindings);
            if (parsed.intent().hasSubgroupTopology() && !plans.isEmpty()
                    && plans.stream().allMatch(p -> p.subGroups().isEmpty() && p.level() == GangPlan.Level.GANG)) {
                for (ObjectRef subject : unit.subjects()) {
                    findings.add(Finding.warning(WorkloadReason.SUBGROUP_SETTINGS_IGNORED, subject, subject
                            + ": " + Topobridge.SUBGROUP_HIGHEST_TIER + "/" + Topobridge.SUBGROUP_MODE
                            + " are ignored: this gang has no subgroups"));
                }
            }
            List<DesiredPodGroup> built = new ArrayList<>();
            boolean refused = false;
            for (GangPlan plan : plans) {
                PodGroupBuilder.Built result = PodGroupBuilder.build(plan, parsed.intent(), unit.subjects(),
                        settings.defaultQueue());
                findings.addAll(result.findings());
                if (result.podGroup() == null) {
                    refused = true;
                } else {
                    built.add(result.podGroup());
                }
            }
            if (!refused) {
                podGroups.addAll(built);
            }
        }
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(Finding.ORDER);
        return new ScopeResult(scope, subjects, podGroups, sorted);
    }

    private static ScopeResult unreadable(GangScope scope, List<ObjectRef> subjects, RuntimeException e) {
        List<ObjectRef> about = subjects.isEmpty()
                ? List.of(new ObjectRef(null, scope.kind(), scope.namespace(), scope.name(), null)) : subjects;
        List<Finding> findings = new ArrayList<>();
        for (ObjectRef subject : about) {
            findings.add(Finding.rejected(WorkloadReason.UNREADABLE_WORKLOAD, subject,
                    subject + ": cannot be read: " + UserText.excerpt(e.getMessage())));
        }
        return new ScopeResult(scope, subjects, List.of(), findings);
    }

    /** Members of a group whose own annotations are fine are told why the group still has no PodGroup. */
    private static void rejectOthers(GangScope scope, List<ObjectRef> subjects, Set<Finding> findings) {
        if (!scope.isGroup()) {
            return;
        }
        Set<ObjectRef> rejected = new LinkedHashSet<>();
        findings.stream().filter(Finding::isRejection).forEach(f -> rejected.add(f.object()));
        for (ObjectRef subject : subjects) {
            if (!rejected.contains(subject)) {
                findings.add(Finding.rejected(WorkloadReason.GROUP_REJECTED, subject, subject + ": group "
                        + scope.name() + " has no PodGroup because " + String.join(", ",
                                rejected.stream().map(ObjectRef::toString).toList()) + " was refused"));
            }
        }
    }

    /** Checks that need the kind: a group on a kind that cannot join one. */
    private static List<Finding> kindChecks(Unit unit, GangIntent intent) {
        List<Finding> out = new ArrayList<>();
        if (intent.group() != null) {
            for (ObjectRef subject : unit.subjects()) {
                WorkloadKind kind = WorkloadKind.of(subject.apiVersion(), subject.kind()).orElse(null);
                if (kind != null && !GROUPABLE.contains(kind)) {
                    out.add(groupUnsupported(subject, intent.group()));
                }
            }
        }
        return out;
    }

    private static Finding groupUnsupported(ObjectRef subject, String group) {
        return Finding.rejected(WorkloadReason.INVALID_ANNOTATION, subject, subject + ": " + Topobridge.GROUP + "="
                + UserText.quote(group) + ": only Deployments, StatefulSets and LeaderWorkerSets can join a group")
                .withKey(Topobridge.GROUP);
    }

    private void groupUnit(GangScope scope, Run run, List<Unit> units, List<ObjectRef> subjects) {
        List<Workload> members = run.groupMembers(scope);
        if (members.isEmpty()) {
            return;
        }
        List<AnnotationSource> sources = new ArrayList<>();
        for (Workload member : members) {
            subjects.add(member.ref());
            sources.addAll(sources(member));
        }
        List<ObjectRef> memberRefs = List.copyOf(subjects);
        units.add(new Unit(sources, memberRefs, (intent, notes) -> {
            List<PodRole> roles = new ArrayList<>();
            List<SubGroupPlan> subs = new ArrayList<>();
            List<OwnerReference> owners = new ArrayList<>();
            for (Workload member : members) {
                Member m = member.kind() == WorkloadKind.LEADER_WORKER_SET ? LeaderWorkerSetAdapter.member(member)
                        : ReplicatedAdapter.member(member);
                roles.addAll(m.roles());
                subs.addAll(m.subGroups());
                // Kubernetes deletes a dependent only when all owners are gone: every member owns the gang
                OwnerReference ref = member.ownerReference(owners.isEmpty());
                if (ref != null) {
                    owners.add(ref);
                }
            }
            if (roles.stream().mapToLong(PodRole::count).sum() == 0) {
                return List.of();
            }
            return List.of(GangPlan.owned(scope, PodGroupNames.group(scope.name()), owners, roles, subs));
        }));
    }

    private void kindUnits(GangScope scope, Run run, List<Unit> units, List<ObjectRef> subjects,
            Set<Finding> findings) {
        WorkloadLookup lookup = run.lookup;
        WorkloadKind kind = WorkloadKind.values()[0];
        for (WorkloadKind k : WorkloadKind.values()) {
            if (k.kind().equals(scope.kind())) {
                kind = k;
            }
        }
        Optional<HasMetadata> object = lookup.get(kind, scope.namespace(), scope.name());
        if (object.isEmpty() || !scope.equals(run.scopeOf(object.get()).orElse(null))) {
            return;
        }
        Workload w = run.view(object.get()).orElseThrow();
        subjects.add(w.ref());
        List<ObjectRef> self = List.of(w.ref());
        switch (w.kind()) {
            case DEPLOYMENT, STATEFUL_SET -> units.add(new Unit(sources(w), self,
                    (intent, notes) -> ReplicatedAdapter.plans(w, scope)));
            case LEADER_WORKER_SET -> units.add(new Unit(sources(w), self,
                    (intent, notes) -> LeaderWorkerSetAdapter.plans(w, scope, lookup, notes)));
            case DISAGGREGATED_SET -> units.add(new Unit(sources(w), self,
                    (intent, notes) -> DisaggregatedSetAdapter.plans(w, scope, lookup, notes)));
            case ROLE_SET -> units.add(new Unit(sources(w), self,
                    (intent, notes) -> AibrixAdapter.roleSetPlans(w, scope, w.ref(), lookup, notes)));
            case POD_SET -> units.add(new Unit(sources(w), self,
                    (intent, notes) -> AibrixAdapter.podSetPlans(w, scope, notes)));
            case STORM_SERVICE -> stormServiceUnits(w, scope, lookup, units, findings);
            default -> {
            }
        }
    }

    /**
     * A StormService gives one unit per RoleSet: the StormService's metadata with that RoleSet's own
     * annotations and pod templates (a RoleSet of an older revision keeps its own values while it rolls).
     */
    private static void stormServiceUnits(Workload storm, GangScope scope, WorkloadLookup lookup, List<Unit> units,
            Set<Finding> findings) {
        List<ObjectRef> self = List.of(storm.ref());
        List<Workload> roleSets = AibrixAdapter.roleSetsOf(storm, lookup);
        if (roleSets.isEmpty()) {
            units.add(new Unit(AibrixAdapter.stormServiceSources(storm), self, (intent, notes) -> {
                int replicas = Workload.integer(storm.spec().get("replicas"), "spec.replicas", 1);
                if (replicas > 0) {
                    notes.add(Finding.info(WorkloadReason.WAITING_FOR_ROLE_SETS, storm.ref(), storm.ref()
                            + ": AIBrix has not created its RoleSets yet; their PodGroups follow once it has"));
                }
                return List.of();
            }));
            return;
        }
        for (Workload roleSet : roleSets) {
            List<AnnotationSource> sources = new ArrayList<>();
            sources.add(storm.metadataSource());
            for (AnnotationSource source : AibrixAdapter.roleSetSources(roleSet)) {
                sources.add(new AnnotationSource(storm.ref(), source.where() + " of RoleSet " + roleSet.name(),
                        source.annotations()));
            }
            units.add(new Unit(sources, self,
                    (intent, notes) -> AibrixAdapter.roleSetPlans(roleSet, scope, storm.ref(), lookup, notes)));
        }
    }

    /**
     * Rejections of a workload's annotations (the validating webhook's answer), with the reconciler's
     * messages. Checks that need other objects (a group's other members, RoleSets) are the reconciler's.
     */
    public List<Finding> validate(HasMetadata workload, TierCatalog tiers) {
        Optional<Workload> view = Workload.of(workload);
        if (view.isEmpty() || view.get().kind() == WorkloadKind.REPLICA_SET) {
            return List.of();
        }
        Workload w = view.get();
        try {
            ParsedIntent parsed = AnnotationParser.parse(sources(w), tiers);
            List<Finding> out = new ArrayList<>(parsed.findings());
            GangIntent intent = parsed.intent();
            if (intent.group() != null && !GROUPABLE.contains(w.kind())) {
                out.add(groupUnsupported(w.ref(), intent.group()));
            }
            if (intent.minMember() != null && intent.group() == null) {
                long pods = podsPerGang(w);
                if (pods >= 0 && intent.minMember() > pods) {
                    out.add(Finding.rejected(WorkloadReason.INVALID_ANNOTATION, w.ref(),
                            PodGroupBuilder.minMemberMessage(w.ref(), intent.minMember(), pods))
                            .withKey(Topobridge.MIN_MEMBER));
                }
            }
            return out;
        } catch (RuntimeException e) {
            return List.of(Finding.rejected(WorkloadReason.UNREADABLE_WORKLOAD, w.ref(),
                    w.ref() + ": cannot be read: " + UserText.excerpt(e.getMessage())));
        }
    }

    /** Pods in one gang of a workload (per LWS group, per RoleSet…), or -1 where it takes other objects to know. */
    private static long podsPerGang(Workload w) {
        return switch (w.kind()) {
            case DEPLOYMENT, STATEFUL_SET -> ReplicatedAdapter.podCount(w) == 0 ? -1 : ReplicatedAdapter.podCount(w);
            case LEADER_WORKER_SET -> w.owner(WorkloadKind.DISAGGREGATED_SET).isPresent() ? -1
                    : LeaderWorkerSetAdapter.podCount(w);
            case DISAGGREGATED_SET -> DisaggregatedSetAdapter.podCount(w) == 0 ? -1 : DisaggregatedSetAdapter.podCount(w);
            case STORM_SERVICE -> AibrixAdapter.stormServicePodCount(w) == 0 ? -1 : AibrixAdapter.stormServicePodCount(w);
            case ROLE_SET -> AibrixAdapter.roleSetPodCount(w) == 0 ? -1 : AibrixAdapter.roleSetPodCount(w);
            case POD_SET -> AibrixAdapter.podSetPodCount(w);
            default -> -1;
        };
    }

    /**
     * The gang a pod being created belongs to, found from its labels and owner chain through
     * {@code lookup}; empty for a pod of no managed workload, or of one whose annotations are refused.
     */
    public Optional<PodAssignment> assign(Pod pod, TierCatalog tiers, WorkloadLookup lookup) {
        return new PodAssigner(this, lookup).assign(pod, tiers);
    }

    /**
     * The scope a PodGroup belongs to: from the bridge's annotation on its own PodGroups, from the owner
     * chain on PodGroups AIBrix or LWS made (so their appearance triggers adoption).
     */
    public Optional<GangScope> scopeOfPodGroup(HasMetadata podGroup, WorkloadLookup lookup) {
        var meta = podGroup.getMetadata();
        if (meta == null || meta.getNamespace() == null) {
            return Optional.empty();
        }
        Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
        if (Topobridge.MANAGED_BY.equals(labels.get(Topobridge.MANAGED_BY_LABEL))) {
            String key = meta.getAnnotations() == null ? null : meta.getAnnotations().get(PodGroupBuilder.GANG_ANNOTATION);
            return Optional.ofNullable(GangScope.parse(meta.getNamespace(), key));
        }
        for (OwnerReference ref : meta.getOwnerReferences() == null ? List.<OwnerReference>of() : meta.getOwnerReferences()) {
            Optional<WorkloadKind> kind = WorkloadKind.of(ref.getApiVersion(), ref.getKind());
            if (kind.isPresent() && (kind.get() == WorkloadKind.ROLE_SET || kind.get() == WorkloadKind.POD_SET)) {
                Optional<HasMetadata> owner = lookup.get(kind.get(), meta.getNamespace(), ref.getName());
                if (owner.isPresent()) {
                    return scopeOf(owner.get(), lookup);
                }
            }
            if ("Pod".equals(ref.getKind()) && ref.getName() != null) {
                int dash = ref.getName().lastIndexOf('-');
                if (dash > 0 && ref.getName().substring(dash + 1).matches("[0-9]+")) {
                    Optional<HasMetadata> lws = lookup.get(WorkloadKind.LEADER_WORKER_SET, meta.getNamespace(),
                            ref.getName().substring(0, dash));
                    if (lws.isPresent()) {
                        return scopeOf(lws.get(), lookup);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * One translation's memory: a view per object (so templates are read once) and the scope of each
     * object, valid while the caches it reads do not change.
     */
    final class Run {
        final WorkloadLookup lookup;
        private final Map<HasMetadata, Optional<Workload>> views = new IdentityHashMap<>();
        private final Map<HasMetadata, Optional<GangScope>> scopes = new IdentityHashMap<>();
        private final Map<String, Map<String, List<Workload>>> groupsByNamespace = new HashMap<>();

        Run(WorkloadLookup lookup) {
            this.lookup = lookup;
        }

        Optional<Workload> view(HasMetadata object) {
            return views.computeIfAbsent(object, Workload::of);
        }

        Optional<GangScope> scopeOf(HasMetadata object) {
            Optional<GangScope> known = scopes.get(object);
            if (known == null) {
                known = computeScope(object);
                scopes.put(object, known);
            }
            return known;
        }

        /** Members of each group of a namespace, sorted by kind and name; computed once per namespace. */
        List<Workload> groupMembers(GangScope scope) {
            Map<String, List<Workload>> groups = groupsByNamespace.computeIfAbsent(scope.namespace(), ns -> {
                Map<String, List<Workload>> out = new HashMap<>();
                for (WorkloadKind kind : List.of(WorkloadKind.DEPLOYMENT, WorkloadKind.STATEFUL_SET,
                        WorkloadKind.LEADER_WORKER_SET)) {
                    for (HasMetadata object : lookup.list(kind, ns)) {
                        Optional<GangScope> s = scopeOf(object);
                        if (s.isPresent() && s.get().isGroup()) {
                            view(object).ifPresent(w -> out.computeIfAbsent(s.get().name(), k -> new ArrayList<>()).add(w));
                        }
                    }
                }
                out.values().forEach(list -> list.sort(
                        Comparator.comparing((Workload w) -> w.kind().ordinal()).thenComparing(Workload::name)));
                return out;
            });
            return groups.getOrDefault(scope.name(), List.of());
        }

        private Optional<GangScope> computeScope(HasMetadata object) {
        Optional<Workload> view = view(object);
        if (view.isEmpty()) {
            return Optional.empty();
        }
        Workload w = view.get();
        String ns = w.namespace();
        try {
            switch (w.kind()) {
                case DEPLOYMENT:
                    return Optional.of(groupOrOwn(w));
                case STATEFUL_SET:
                    if (w.owner(WorkloadKind.LEADER_WORKER_SET).isPresent() || podOwner(w) != null) {
                        return Optional.empty();
                    }
                    return Optional.of(groupOrOwn(w));
                case LEADER_WORKER_SET: {
                    Optional<OwnerReference> ds = w.owner(WorkloadKind.DISAGGREGATED_SET);
                    if (ds.isPresent()) {
                        return Optional.of(GangScope.of(WorkloadKind.DISAGGREGATED_SET, ns, ds.get().getName()));
                    }
                    return Optional.of(groupOrOwn(w));
                }
                case ROLE_SET: {
                    Optional<OwnerReference> storm = w.owner(WorkloadKind.STORM_SERVICE);
                    return Optional.of(storm.isPresent()
                            ? GangScope.of(WorkloadKind.STORM_SERVICE, ns, storm.get().getName())
                            : GangScope.of(WorkloadKind.ROLE_SET, ns, w.name()));
                }
                case POD_SET: {
                    Optional<OwnerReference> roleSet = w.owner(WorkloadKind.ROLE_SET);
                    if (roleSet.isEmpty()) {
                        return Optional.of(GangScope.of(WorkloadKind.POD_SET, ns, w.name()));
                    }
                    Optional<HasMetadata> parent = lookup.get(WorkloadKind.ROLE_SET, ns, roleSet.get().getName());
                    return parent.isPresent() ? scopeOf(parent.get())
                            : Optional.of(GangScope.of(WorkloadKind.ROLE_SET, ns, roleSet.get().getName()));
                }
                case STORM_SERVICE:
                case DISAGGREGATED_SET:
                    return Optional.of(GangScope.of(w.kind(), ns, w.name()));
                default:
                    return Optional.empty();
            }
        } catch (RuntimeException e) {
            // unreadable templates: the workload still has a scope of its own, where the error is reported
            return Optional.of(GangScope.of(w.kind(), ns, w.name()));
        }
    }

    }

    /** Given objects in front of a lookup, so {@link #translate} also sees workloads not (yet) in the lookup. */
    private static final class OverlayLookup implements WorkloadLookup {
        private final Map<WorkloadKind, Map<String, Map<String, HasMetadata>>> given = new TreeMap<>();
        private final WorkloadLookup base;

        OverlayLookup(Collection<? extends HasMetadata> objects, WorkloadLookup base) {
            this.base = base;
            for (HasMetadata object : objects) {
                Workload.of(object).ifPresent(w -> given.computeIfAbsent(w.kind(), k -> new TreeMap<>())
                        .computeIfAbsent(w.namespace(), k -> new TreeMap<>()).put(w.name(), object));
            }
        }

        @Override
        public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
            HasMetadata mine = given.getOrDefault(kind, Map.of()).getOrDefault(ns(namespace), Map.of()).get(name);
            return mine != null ? Optional.of(mine) : base.get(kind, namespace, name);
        }

        @Override
        public List<HasMetadata> list(WorkloadKind kind, String namespace) {
            Map<String, HasMetadata> out = new LinkedHashMap<>();
            for (HasMetadata object : base.list(kind, namespace)) {
                out.put(object.getMetadata().getName(), object);
            }
            out.putAll(given.getOrDefault(kind, Map.of()).getOrDefault(ns(namespace), Map.of()));
            List<HasMetadata> list = new ArrayList<>(out.values());
            list.sort(Comparator.comparing(o -> o.getMetadata().getName()));
            return list;
        }

        @Override
        public List<HasMetadata> podGroups(String namespace) {
            return base.podGroups(namespace);
        }

        private static String ns(String namespace) {
            return namespace == null ? "" : namespace;
        }
    }
}
