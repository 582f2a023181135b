package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.topobridge.core.Topobridge;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.annotation.AnnotationParser;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@code topobridge.io/group}: the workloads of one namespace (of the kinds that are {@link GroupMember}s) that
 * name the same group form one gang, {@code tb-group-<group>}, each member a role with a subgroup of its own.
 * Every member owns the PodGroup (Kubernetes deletes a dependent only when all its owners are gone), the first
 * by kind and name as controller.
 */
public final class GroupAdapter {

    /** The scope of a workload that may join a group: the valid group its sources name (all agreeing), else itself. */
    public static GangScope groupOrOwn(Workload w, List<AnnotationSource> sources) {
        Set<String> values = new HashSet<>();
        for (AnnotationSource source : sources) {
            String value = source.annotations().get(Topobridge.GROUP);
            if (value != null) {
                values.add(value.trim());
            }
        }
        String group = values.size() == 1 ? values.iterator().next() : null;
        return AnnotationParser.validGroup(group)
                ? new GangScope.Group(w.namespace(), group)
                : new GangScope.Single(w.kind(), w.namespace(), w.name());
    }

    /** The one gang of a group's members (none when it has none). */
    static List<Gang> gangs(GangScope.Group group, Snapshot snapshot) {
        WorkloadAdapters adapters = snapshot.adapters();
        List<Workload> members = snapshot.groupMembers(group);
        if (members.isEmpty()) {
            return List.of();
        }
        List<AnnotationSource> sources = new ArrayList<>();
        List<ObjectRef> subjects = new ArrayList<>();
        for (Workload member : members) {
            subjects.add(member.ref());
            sources.addAll(adapters.of(member.kind()).orElseThrow().sources(member));
        }
        return List.of(new Gang(
                sources,
                subjects,
                PodIdentity.NONE,
                Gang.keyed((present, notes) -> plans(adapters, snapshot.requests(), group, members, present, notes)),
                false));
    }

    private static List<GangPlan> plans(
            WorkloadAdapters adapters,
            PodRequests requests,
            GangScope.Group group,
            List<Workload> members,
            PodIdentity present,
            List<Finding> notes) {
        List<PodRole> roles = new ArrayList<>();
        List<SubGroupPlan> subs = new ArrayList<>();
        List<OwnerReference> owners = new ArrayList<>();
        boolean surgeOnly = false;
        for (Workload member : members) {
            Member m = adapters.groupMember(member.kind()).orElseThrow().member(member, present, requests);
            roles.addAll(m.roles());
            subs.addAll(m.subGroups());
            notes.addAll(m.notes());
            surgeOnly |= m.surgeOnlyRollout();
            OwnerReference ref = member.ownerReference(owners.isEmpty());
            if (ref != null) {
                owners.add(ref);
            }
        }
        if (PodRole.count(roles, false) == 0) {
            return List.of();
        }
        return List.of(GangPlan.owned(group, PodGroupNames.group(group.name()), owners, roles, subs)
                .withSurgeOnlyRollout(surgeOnly));
    }
}
