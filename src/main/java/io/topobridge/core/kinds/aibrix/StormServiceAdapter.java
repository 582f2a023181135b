package io.topobridge.core.kinds.aibrix;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.AnnotationParser;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.kind.Gang;
import io.topobridge.core.workload.kind.KindAdapter;
import io.topobridge.core.workload.kind.PodOrigin;
import io.topobridge.core.workload.kind.ScaledRoles;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * AIBrix StormService: runs {@code replicas} RoleSets (one P/D replica each, named
 * {@code <stormservice>-roleset-<random>}), each one gang read from the StormService's metadata and that RoleSet's
 * own annotations and templates (a RoleSet of an older revision keeps its own values while it rolls). The
 * StormService's template is the RoleSet AIBrix makes next: until a RoleSet of it exists it is checked as a gang
 * of its own, whose PodGroups are not made.
 */
public final class StormServiceAdapter implements KindAdapter {

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.STORM_SERVICE;
    }

    /** A PodAutoscaler of one role grows that role inside each RoleSet, unless it scales the RoleSets themselves. */
    @Override
    public Optional<ScaledRoles.Unit> scaledPart(Autoscaler a, GangScope scope, Snapshot snapshot) {
        WorkloadKind kind = kind();
        if (a.role() == null
                || !a.targets(kind.group(), kind.kind(), a.targetName())
                || !(scope instanceof GangScope.Single single && single.kind() == kind)
                || !scope.name().equals(a.targetName())) {
            return Optional.empty();
        }
        return snapshot.get(kind, scope.namespace(), a.targetName())
                .filter(w -> !replicaMode(a, w))
                .flatMap(w -> roles(w).stream()
                        .filter(r -> r.name().equals(a.role()))
                        .findFirst()
                        .map(r -> new ScaledRoles.Unit(
                                a,
                                w.ref(),
                                "role " + r.name(),
                                ScaledRoles.amounts(ScaledRoles.requests(r.template()), Math.max(r.podGroupSize(), 1)),
                                r.replicas())));
    }

    /**
     * Whether AIBrix scales the StormService's RoleSets (each a gang of its own) rather than the role: its
     * {@code spec.mode} is {@code Replica}, or it has none and the PodAutoscaler is annotated so.
     */
    private static boolean replicaMode(Autoscaler a, Workload storm) {
        String mode = storm.spec().path("mode").asText("");
        return mode.isEmpty() ? a.replicaModeAnnotated() : "Replica".equals(mode);
    }

    @Override
    public Optional<GangScope> scopeOf(Workload storm, Snapshot snapshot) {
        return Optional.of(new GangScope.Single(kind(), storm.namespace(), storm.name()));
    }

    private static JsonNode template(Workload storm) {
        return Workload.object(storm.spec().get("template"), "spec.template");
    }

    private static JsonNode templateSpec(Workload storm) {
        return Workload.object(template(storm).get("spec"), "spec.template.spec");
    }

    private static Map<String, String> templateAnnotations(Workload storm) {
        JsonNode metadata = Workload.object(template(storm).get("metadata"), "spec.template.metadata");
        return Workload.strings(metadata.get("annotations"), "spec.template.metadata.annotations");
    }

    public static List<Aibrix.Role> roles(Workload storm) {
        return storm.memo("storm-roles", () -> Aibrix.roles(templateSpec(storm), "spec.template.spec"));
    }

    @Override
    public List<AnnotationSource> sources(Workload storm) {
        List<AnnotationSource> out = new ArrayList<>();
        out.add(storm.metadataSource());
        out.add(AnnotationSource.of(storm.ref(), "RoleSet template", templateAnnotations(storm)));
        for (Aibrix.Role role : roles(storm)) {
            out.add(storm.templateSource(role.template(), "pod template of role " + role.name()));
        }
        return out;
    }

    @Override
    public List<Gang> gangs(GangScope scope, Snapshot snapshot) {
        return snapshot.get(kind(), scope.namespace(), scope.name())
                .map(storm -> gangs(storm, scope, snapshot))
                .orElse(List.of());
    }

    /** A RoleSet's gang for each RoleSet the StormService has, and one of its template while none was made from it. */
    private List<Gang> gangs(Workload storm, GangScope scope, Snapshot snapshot) {
        List<Workload> roleSets = roleSetsOf(storm, snapshot);
        List<Gang> out = new ArrayList<>();
        for (Workload roleSet : roleSets) {
            out.add(roleSetGang(storm, roleSet, scope, snapshot));
        }
        if (roleSets.stream().noneMatch(rs -> madeFromTemplate(rs, storm))) {
            out.add(templateGang(storm, scope, snapshot, roleSets.isEmpty()));
        }
        return out;
    }

    @Override
    public Optional<Gang> gangOf(GangScope scope, PodIdentity pod, Snapshot snapshot) {
        // only the pod's own RoleSet is read: a StormService may run many
        String workload = pod.get(PodIdentity.WORKLOAD);
        String prefix = WorkloadKind.ROLE_SET.kind() + "/";
        Optional<Workload> storm = snapshot.get(kind(), scope.namespace(), scope.name());
        if (storm.isEmpty() || workload == null || !workload.startsWith(prefix)) {
            return Optional.empty();
        }
        return snapshot.get(WorkloadKind.ROLE_SET, scope.namespace(), workload.substring(prefix.length()))
                .filter(rs -> ownedBy(rs, storm.get()))
                .map(rs -> roleSetGang(storm.get(), rs, scope, snapshot));
    }

    private static Gang roleSetGang(Workload storm, Workload roleSet, GangScope scope, Snapshot snapshot) {
        List<AnnotationSource> sources = new ArrayList<>();
        sources.add(storm.metadataSource());
        for (AnnotationSource source : Aibrix.roleSetSources(roleSet)) {
            sources.add(new AnnotationSource(
                    storm.ref(),
                    source.where() + " of RoleSet " + roleSet.name(),
                    source.annotations(),
                    source.labels(),
                    source.scheduler()));
        }
        return new Gang(
                sources,
                List.of(storm.ref()),
                PodIdentity.of(PodIdentity.WORKLOAD, WorkloadKind.ROLE_SET.kind() + "/" + roleSet.name()),
                Gang.keyed((present, notes) -> Aibrix.roleSetPlans(
                        Aibrix.RoleSetShape.of(roleSet), scope, storm.ref(), snapshot, present, notes)),
                false);
    }

    /**
     * The RoleSet AIBrix makes next, from the template: its annotations and gang size are checked now (so a bad
     * edit is refused before it rolls out), and before any RoleSet exists the StormService waits for AIBrix.
     */
    private Gang templateGang(Workload storm, GangScope scope, Snapshot snapshot, boolean noRoleSets) {
        var next = new Aibrix.RoleSetShape(
                storm.name(),
                storm.namespace(),
                roles(storm),
                Aibrix.volcano(templateSpec(storm), "spec.template.spec"),
                List.of());
        return new Gang(
                sources(storm),
                List.of(storm.ref()),
                PodIdentity.NONE,
                (present, only, notes) -> {
                    if (noRoleSets && Workload.integer(storm.spec().get("replicas"), "spec.replicas", 1) > 0) {
                        notes.add(
                                Finding.info(
                                        WorkloadReason.WAITING_FOR_ROLE_SETS,
                                        storm.ref(),
                                        storm.ref()
                                                + ": AIBrix has not created its RoleSets yet; their PodGroups follow once it has"));
                    }
                    return Aibrix.roleSetPlans(next, scope, storm.ref(), snapshot, PodIdentity.NONE, new ArrayList<>());
                },
                true);
    }

    /** Whether AIBrix made a RoleSet from the current template: same spec, same bridge and Volcano annotations. */
    private static boolean madeFromTemplate(Workload roleSet, Workload storm) {
        return Objects.equals(roleSet.spec(), templateSpec(storm))
                && AnnotationParser.relevant(roleSet.annotations())
                        .equals(AnnotationParser.relevant(templateAnnotations(storm)));
    }

    private static List<Workload> roleSetsOf(Workload storm, Snapshot snapshot) {
        return snapshot.list(WorkloadKind.ROLE_SET, storm.namespace()).stream()
                .filter(rs -> ownedBy(rs, storm))
                .toList();
    }

    private static boolean ownedBy(Workload roleSet, Workload storm) {
        return roleSet.owner(WorkloadKind.STORM_SERVICE)
                .map(ref -> ref.getUid() != null && storm.uid() != null
                        ? ref.getUid().equals(storm.uid())
                        : storm.name().equals(ref.getName()))
                .orElse(false);
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        // its pods are the RoleSets' pods
        return Optional.empty();
    }
}
