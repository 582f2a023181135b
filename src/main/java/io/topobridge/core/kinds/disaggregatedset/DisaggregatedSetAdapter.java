package io.topobridge.core.kinds.disaggregatedset;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.expand.Build;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.kinds.lws.LeaderWorkerSetAdapter;
import io.topobridge.core.kinds.lws.LwsGroups;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import io.topobridge.core.workload.kind.Gang;
import io.topobridge.core.workload.kind.KindAdapter;
import io.topobridge.core.workload.kind.PodOrigin;
import io.topobridge.core.workload.kind.Pods;
import io.topobridge.core.workload.kind.ScaledRoles;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * DisaggregatedSet ({@code disaggregatedset.x-k8s.io/v1}): one PodGroup per slice, spanning the slice's role LWSs
 * (pods carry the set name, slice and role); {@code minMember} is the sum over roles of {@code replicas × size},
 * an externally scaled role counting the replicas its scaler wrote on its LWSs; one subgroup per role, split by
 * LWS group. Where LWS's Volcano provider gangs each LWS group on its own, those PodGroups are adopted.
 */
public final class DisaggregatedSetAdapter implements KindAdapter {

    public static final String EXTERNAL = "External";

    /** One role: its name, its LWS shape, its own metadata annotations (copied onto its LWSs) and scaling mode. */
    public record Role(String name, LwsGroups.Shape shape, Map<String, String> annotations, String scaling) {}

    /**
     * One entry of a DisaggregatedSet's {@code spec.roles}, its name and metadata checked: the one reading of the roles
     * list that both the adapter and the emulated controller start from. The rest of an entry is read as each needs it.
     *
     * @param name the role's name (never empty)
     * @param at where the entry is, for messages ({@code spec.roles[0]})
     */
    record RoleEntry(String name, String at, JsonNode node, JsonNode metadata) {

        /** Each entry of {@code spec.roles} made into a role by {@code each}, entry by entry, in order. */
        static <T> List<T> read(JsonNode spec, Function<RoleEntry, T> each) {
            return Build.each(spec.get("roles"), "spec.roles", (role, at) -> {
                String name = Workload.text(role.get("name"), at + ".name", "");
                if (name.isEmpty()) {
                    throw new IllegalArgumentException(at + ".name is missing");
                }
                return each.apply(
                        new RoleEntry(name, at, role, Workload.object(role.get("metadata"), at + ".metadata")));
            });
        }

        JsonNode spec() {
            return Workload.object(node.get("spec"), at + ".spec");
        }

        Map<String, String> annotations() {
            return Workload.strings(metadata.get("annotations"), at + ".metadata.annotations");
        }

        Map<String, String> labels() {
            return Workload.strings(metadata.get("labels"), at + ".metadata.labels");
        }
    }

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.DISAGGREGATED_SET;
    }

    /** The kind of a DisaggregatedSet role's scale target (LWS v0.10, KEP-849). */
    public static final String ROLE_SCALER_KIND = "DisaggregatedSetRoleScaler";

    /**
     * An autoscaler of a role's {@code DisaggregatedSetRoleScaler} ({@code <set>-<role>}) grows the set's gang by
     * whole LWS groups of that role, when the role's {@code scaling.mode} is {@code External}.
     */
    @Override
    public Optional<ScaledRoles.Unit> scaledPart(Autoscaler a, GangScope scope, Snapshot snapshot) {
        if (a.role() != null
                || !a.targets(kind().group(), ROLE_SCALER_KIND, a.targetName())
                || !(scope instanceof GangScope.Single single && single.kind() == kind())) {
            return Optional.empty();
        }
        return snapshot.get(kind(), scope.namespace(), scope.name()).flatMap(ds -> scaledRole(a, ds, snapshot));
    }

    private static Optional<ScaledRoles.Unit> scaledRole(Autoscaler a, Workload ds, Snapshot snapshot) {
        for (Role role : roles(ds)) {
            if (!(ds.name() + "-" + role.name()).equals(a.targetName()) || !EXTERNAL.equals(role.scaling())) {
                continue;
            }
            // External roles run in a set of one slice (LWS refuses more): slice 0
            long current = replicas(role, 0, children(ds, snapshot));
            return Optional.of(new ScaledRoles.Unit(
                    a, ds.ref(), "role " + role.name(), LwsGroups.groupRequests(role.shape()), current));
        }
        return Optional.empty();
    }

    @Override
    public Optional<GangScope> scopeOf(Workload ds, Snapshot snapshot) {
        return Optional.of(new GangScope.Single(kind(), ds.namespace(), ds.name()));
    }

    public static List<Role> roles(Workload ds) {
        return ds.memo(
                "ds-roles",
                () -> RoleEntry.read(ds.spec(), entry -> {
                    JsonNode scaling = Workload.object(entry.node().get("scaling"), entry.at() + ".scaling");
                    return new Role(
                            entry.name(),
                            LwsGroups.shape(entry.spec(), entry.at() + ".spec", false),
                            entry.annotations(),
                            Workload.text(scaling.get("mode"), entry.at() + ".scaling.mode", "Static"));
                }));
    }

    @Override
    public List<AnnotationSource> sources(Workload ds) {
        List<AnnotationSource> out = new ArrayList<>();
        out.add(ds.metadataSource());
        for (Role role : roles(ds)) {
            if (!role.annotations().isEmpty()) {
                out.add(AnnotationSource.of(ds.ref(), "metadata of role " + role.name(), role.annotations()));
            }
            if (role.shape().leader() != null) {
                out.add(ds.templateSource(role.shape().leader(), "leader template of role " + role.name()));
            }
            out.add(ds.templateSource(role.shape().worker(), "worker template of role " + role.name()));
        }
        return out;
    }

    @Override
    public List<Gang> gangs(GangScope scope, Snapshot snapshot) {
        return ownGang(
                scope, snapshot, ds -> (present, only, notes) -> plans(ds, scope, present, only, notes, snapshot));
    }

    private List<GangPlan> plans(
            Workload ds,
            GangScope scope,
            PodIdentity present,
            boolean onlyPresent,
            List<Finding> notes,
            Snapshot snapshot) {
        int sliceCount = Workload.integer(ds.spec().get("slices"), "spec.slices", 1);
        if (sliceCount < 1) {
            throw new IllegalArgumentException("spec.slices=" + sliceCount + " is less than 1");
        }
        if (LwsGroups.refuseTooMany(sliceCount, snapshot, ds.ref(), "spec.slices", "slices", notes)) {
            return List.of();
        }
        List<Role> roles = roles(ds);
        boolean refused = false;
        for (Role role : roles) {
            refused |= LwsGroups.refuseUnsupported(role.shape(), ds.ref(), "role " + role.name() + ": ", notes);
        }
        if (refused) {
            return List.of();
        }
        boolean ours = selector(ds).covers(present);
        List<Workload> children = children(ds, snapshot);
        List<GangPlan> adopted = providerPlans(ds, scope, present, ours, roles, children, notes, snapshot);
        if (!adopted.isEmpty()) {
            return adopted;
        }
        List<GangPlan> plans = new ArrayList<>();
        int presentSlice = ours ? Pods.index(present.get(PodIdentity.SLICE)) : -1;
        for (int slice : LwsGroups.indices(sliceCount, presentSlice, onlyPresent)) {
            List<PodRole> pods = new ArrayList<>();
            List<SubGroupPlan> subs = new ArrayList<>();
            for (Role role : roles) {
                PodIdentity base =
                        selector(ds).with(PodIdentity.SLICE, String.valueOf(slice), PodIdentity.ROLE, role.name());
                long groups = replicas(role, slice, children);
                if (base.covers(present)) {
                    groups = Math.max(groups, 1);
                }
                if (groups == 0) {
                    continue;
                }
                pods.addAll(LwsGroups.roles(role.shape(), role.name() + "-", groups, base));
                // a LeaderReady role's subgroup is its workers: the leaders start alone, in the gang
                SubGroupPlan group =
                        LwsGroups.groupSubGroup(role.shape(), role.name(), WorkloadLabels.DS_ROLE, role.name());
                if (group != null) {
                    subs.add(group);
                }
            }
            if (!pods.isEmpty()) {
                plans.add(GangPlan.owned(
                                scope,
                                PodGroupNames.disaggregatedSet(ds.name(), slice),
                                ds.ownerReferences(),
                                pods,
                                subs)
                        .withSurgeOnlyRollout(
                                roles.stream().anyMatch(r -> r.shape().surgeOnlyRollout())));
            }
        }
        return plans;
    }

    /** The plans that add the bridge's fields to the PodGroups LWS's Volcano provider made, one per LWS group. */
    private List<GangPlan> providerPlans(
            Workload ds,
            GangScope scope,
            PodIdentity present,
            boolean ours,
            List<Role> roles,
            List<Workload> children,
            List<Finding> notes,
            Snapshot snapshot) {
        List<GangPlan> adopted = new ArrayList<>();
        for (Workload lws : children) {
            Optional<Role> role = role(roles, lws.labels().get(WorkloadLabels.DS_ROLE));
            for (var group : LwsGroups.providerGroups(lws.name(), ds.namespace(), snapshot)) {
                adopted.add(
                        adoptedPlan(ds, scope, role, lws.name(), group.podGroup(), group.group(), group.revision()));
            }
        }
        if (adopted.isEmpty()) {
            return List.of();
        }
        adopted.sort(java.util.Comparator.comparing(GangPlan::name));
        List<String> provider = adopted.stream().map(GangPlan::name).toList();
        String lws = ours ? present.get(PodIdentity.LWS) : null;
        int group = ours ? Pods.index(present.get(PodIdentity.GROUP_INDEX)) : -1;
        String revision = present.get(PodIdentity.REVISION);
        if (lws != null && group >= 0 && revision != null) {
            // the provider names the PodGroup of a group the cache does not show yet
            Optional<Role> role = role(roles, present.get(PodIdentity.ROLE));
            adopted.add(adoptedPlan(ds, scope, role, lws, lws + "-" + group + "-" + revision, group, revision));
        }
        notes.add(
                Finding.warning(
                        WorkloadReason.GANG_SPLIT_BY_PROVIDER,
                        ds.ref(),
                        ds.ref()
                                + ": LeaderWorkerSet's Volcano provider gangs each LWS group on its own (PodGroups "
                                + provider
                                + "), so a slice cannot be one gang; the bridge adds its topology fields to each group's PodGroup"));
        return adopted;
    }

    private static Optional<Role> role(List<Role> roles, String name) {
        return roles.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /** The PodGroup LWS's provider made for one group of one of the set's LWSs. */
    private GangPlan adoptedPlan(
            Workload ds, GangScope scope, Optional<Role> role, String lws, String name, int group, String revision) {
        PodIdentity base = selector(ds)
                .with(
                        PodIdentity.LWS,
                        lws,
                        PodIdentity.GROUP_INDEX,
                        String.valueOf(group),
                        PodIdentity.REVISION,
                        revision);
        List<PodRole> pods = role.map(r -> LwsGroups.roles(r.shape(), r.name() + "-", 1, base))
                .orElse(List.of());
        return GangPlan.adopted(scope, name, pods, List.of(), GangPlan.Level.SUBGROUP);
    }

    /**
     * LWS groups of a role in a slice: the spec's replicas, or for an externally scaled role the replicas of its
     * LWSs in that slice (the scaler writes them there).
     */
    public static long replicas(Role role, int slice, List<Workload> children) {
        if (!EXTERNAL.equals(role.scaling())) {
            return role.shape().replicas();
        }
        long total = 0;
        boolean found = false;
        for (Workload lws : children) {
            Map<String, String> labels = lws.labels();
            if (role.name().equals(labels.get(WorkloadLabels.DS_ROLE))
                    && slice(labels.get(WorkloadLabels.DS_SLICE)) == slice) {
                found = true;
                total += Workload.integer(
                        lws.spec().get("replicas"), "spec.replicas of LeaderWorkerSet " + lws.name(), 1);
            }
        }
        return found ? total : role.shape().replicas();
    }

    /**
     * The slice an object of the set belongs to, from its slice label's value: an object without one (or with an empty one) is
     * slice 0, as LWS reads it. Sets made by LWS releases before slices (v0.9 and older) are one slice, and their
     * LeaderWorkerSets and pods carry no slice label; after an upgrade the set reads back with {@code slices: 1} while
     * those objects live on. -1 for a value that is no slice index.
     */
    private static int slice(String label) {
        return label == null || label.isEmpty() ? 0 : Pods.index(label);
    }

    /** The LWSs the set made: labelled with its name (and, when both uids are known, controlled by it). */
    public static List<Workload> children(Workload ds, Snapshot snapshot) {
        return snapshot.list(WorkloadKind.LEADER_WORKER_SET, ds.namespace()).stream()
                .filter(lws -> ds.name().equals(lws.labels().get(WorkloadLabels.DS_NAME)))
                .filter(lws -> lws.owner(WorkloadKind.DISAGGREGATED_SET)
                        .map(o -> ds.uid() == null
                                || o.getUid() == null
                                || ds.uid().equals(o.getUid()))
                        .orElse(true))
                .toList();
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        Map<String, String> labels = Pods.labels(pod);
        if (!labels.containsKey(WorkloadLabels.DS_NAME)) {
            return Optional.empty();
        }
        return origin(
                pod,
                snapshot,
                labels.get(WorkloadLabels.DS_NAME),
                labels.get(WorkloadLabels.DS_SLICE),
                labels.get(WorkloadLabels.DS_ROLE),
                labels.get(WorkloadLabels.LWS_NAME));
    }

    /** A pod of an LWS the set made: its slice and role are the LWS's labels. */
    @Override
    public Optional<PodOrigin> originThrough(Workload lws, Pod pod, Snapshot snapshot) {
        return origin(
                pod,
                snapshot,
                lws.owner(kind()).orElseThrow().getName(),
                lws.labels().get(WorkloadLabels.DS_SLICE),
                lws.labels().get(WorkloadLabels.DS_ROLE),
                lws.name());
    }

    /** A pod of one role and slice of a set, running in LWS {@code lwsName} when known. */
    private Optional<PodOrigin> origin(
            Pod pod, Snapshot snapshot, String dsName, String slice, String role, String lwsName) {
        Optional<Workload> ds = snapshot.get(WorkloadKind.DISAGGREGATED_SET, Pods.namespace(pod), dsName);
        if (ds.isEmpty() || role == null) {
            return Optional.empty();
        }
        int sliceIndex = slice(slice);
        if (sliceIndex < 0) {
            return Optional.empty();
        }
        String lws = lwsName != null
                ? lwsName
                : LeaderWorkerSetAdapter.ownerStatefulSetLws(pod, snapshot).orElse(null);
        boolean leader = lws != null
                ? Pods.isLeader(pod, lws)
                : "0".equals(Pods.labels(pod).get(WorkloadLabels.LWS_WORKER_INDEX));
        int group = lws != null ? Pods.groupIndex(pod, lws, leader) : -1;
        return Optional.of(new PodOrigin(
                ds.get(),
                selector(ds.get())
                        .with(
                                PodIdentity.SLICE,
                                String.valueOf(sliceIndex),
                                PodIdentity.ROLE,
                                role,
                                PodIdentity.LEADER,
                                String.valueOf(leader),
                                PodIdentity.LWS,
                                lws,
                                PodIdentity.GROUP_INDEX,
                                group < 0 ? null : String.valueOf(group),
                                PodIdentity.REVISION,
                                Pods.labels(pod).get(WorkloadLabels.LWS_REVISION))));
    }
}
