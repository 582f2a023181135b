package io.topobridge.core.workload.kind;

import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.gang.PodIdentity;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The adapters of the kinds the bridge manages, asked by kind, by scope and in turn: what goes from a kind (or a
 * scope) to the code that knows it. The kinds themselves are listed once, in {@code io.topobridge.core.kinds.Kinds}.
 */
public final class WorkloadAdapters {

    private final List<KindAdapter> byPodPrecedence;
    private final Map<WorkloadKind, KindAdapter> byKind = new EnumMap<>(WorkloadKind.class);

    public WorkloadAdapters(List<KindAdapter> byPodPrecedence) {
        this.byPodPrecedence = List.copyOf(byPodPrecedence);
        this.byPodPrecedence.forEach(a -> byKind.put(a.kind(), a));
    }

    /** Every adapter, in the order a pod's origin is asked of them. */
    public List<KindAdapter> all() {
        return byPodPrecedence;
    }

    /** The adapter of a kind; empty for kinds read only to follow owner chains (ReplicaSets). */
    public Optional<KindAdapter> of(WorkloadKind kind) {
        return Optional.ofNullable(byKind.get(kind));
    }

    /** Every gang of a scope: its kind's, or its group's (none when the workload is gone). */
    public List<Gang> gangs(GangScope scope, Snapshot snapshot) {
        if (scope instanceof GangScope.Single single) {
            return of(single.kind()).map(a -> a.gangs(scope, snapshot)).orElse(List.of());
        }
        return GroupAdapter.gangs((GangScope.Group) scope, snapshot);
    }

    /** The gang of a scope a pod with these facts belongs to. */
    public Optional<Gang> gangOf(GangScope scope, PodIdentity pod, Snapshot snapshot) {
        if (scope instanceof GangScope.Single single) {
            return of(single.kind()).flatMap(a -> a.gangOf(scope, pod, snapshot));
        }
        return Gang.covering(gangs(scope, snapshot), pod);
    }

    public Optional<GroupMember> groupMember(WorkloadKind kind) {
        return of(kind).filter(GroupMember.class::isInstance).map(GroupMember.class::cast);
    }

    public Snapshot snapshot(WorkloadLookup lookup, int maxGangsPerWorkload) {
        return new Snapshot(lookup, this, maxGangsPerWorkload);
    }

    /** The first answer of the kinds asked in turn, pods' precedence first. */
    public <T> Optional<T> first(Function<KindAdapter, Optional<T>> ask) {
        for (KindAdapter adapter : byPodPrecedence) {
            Optional<T> answer = ask.apply(adapter);
            if (answer.isPresent()) {
                return answer;
            }
        }
        return Optional.empty();
    }
}
