package io.topobridge.core.workload.changes;

import io.topobridge.core.Topobridge;
import io.topobridge.core.capacity.Achieved;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.volcano.model.NetworkTopologySpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Plans the writes that bring one gang scope's PodGroups in line with its translation, the counterpart of the
 * topology's {@code HyperNodeChanges}: apply every wanted PodGroup the bridge may write, delete the bridge's own
 * PodGroups of the scope it no longer wants, give back the fields it holds on another controller's PodGroup it no
 * longer adopts, and say what stands in the way (a name another controller holds, a queue that is missing or not
 * Open). Whether an apply changes anything is the writer's decision; a refused translation changes nothing, so the
 * gang keeps what it had while the annotations are being fixed.
 */
public final class PodGroupChanges {

    /** One write. */
    public sealed interface Step permits Apply, Delete, Release, RestartGang {
        String name();
    }

    /** Apply this PodGroup (all its fields if owned, the topology fields if adopted). */
    public record Apply(DesiredPodGroup podGroup) implements Step {
        @Override
        public String name() {
            return podGroup.name();
        }
    }

    /** Delete the bridge's own PodGroup of this name. */
    public record Delete(String namespace, String name) implements Step {}

    /** Give back the fields the bridge holds on another controller's PodGroup of this name. */
    public record Release(String namespace, String name) implements Step {}

    /**
     * Restart the gang of this PodGroup whole: delete its pods (a group's leader) by uid, so its own controller makes
     * them again ({@code topobridge.io/on-domain-loss: restart}).
     */
    public record RestartGang(DomainLossRestarts.Restart restart) implements Step {
        @Override
        public String name() {
            return restart.podGroup();
        }
    }

    /** The writes, in order, and the findings of the scope (the translation's and the planner's). */
    public record Plan(List<Step> steps, List<Finding> findings) {
        public Plan {
            steps = List.copyOf(steps);
            findings = List.copyOf(findings);
        }
    }

    /**
     * What bounds the PodGroups the bridge makes, so that whoever may create a workload cannot make it reserve what no
     * one could use, nor flood the API server.
     *
     * @param clusterAllocatable the allocatable resources of every node together, or null while unknown (nothing is
     *     judged then); a resource no node offers counts as zero
     * @param maxPerNamespace how many PodGroups the bridge may own in one namespace (at least 1, as configured)
     * @param reservations what the namespace's PodGroups may reserve together
     */
    public record Bounds(Amounts clusterAllocatable, int maxPerNamespace, Reservations reservations) {}

    /**
     * @param result the scope's translation
     * @param observed the PodGroups of the scope's namespace
     * @param placed where Volcano placed each gang whose pods are all bound, by PodGroup name: the achieved tier is
     *     written on its PodGroup (a gang not placed now keeps what its PodGroup carries, so a pod that restarts
     *     causes no write), and a soft gang placed above the tier it prefers gets an info finding
     * @param inCluster the tiers the cluster's HyperNodes have now, or null when unknown: a new PodGroup with a hard
     *     tier no HyperNode has yet is held back (Volcano would treat the whole cluster as one domain of that tier and
     *     place the gang anywhere); an existing one is written as usual
     * @param bounds what bounds the bridge's PodGroups: a PodGroup whose {@code minResources} exceed its queue's
     *     capability or the whole cluster's allocatable resources is not written (no new one is made; an existing one
     *     is kept as it was), and no new PodGroup is made in a namespace that holds {@code maxPerNamespace} of the
     *     bridge's already (existing ones are kept and updated)
     */
    public static Plan plan(
            ScopeResult result,
            List<ObservedPodGroup> observed,
            QueueStates queues,
            Map<String, Achieved> placed,
            TierCatalog inCluster,
            Bounds bounds) {
        GangScope scope = result.scope();
        Set<String> owned = observed.stream()
                .filter(ObservedPodGroup::ours)
                .map(ObservedPodGroup::name)
                .collect(Collectors.toCollection(HashSet::new));
        Map<String, ObservedPodGroup> byName = new HashMap<>();
        observed.forEach(pg -> byName.put(pg.name(), pg));
        List<Finding> findings = new ArrayList<>(result.findings());
        List<Step> steps = new ArrayList<>();
        Set<String> ownedWanted = new HashSet<>();
        Set<String> adoptedWanted = new HashSet<>();
        Map<String, Reservations.Reserved> reserved = reservedSoFar(scope, observed, result.podGroups());
        for (DesiredPodGroup wanted : result.podGroups()) {
            ObservedPodGroup current = byName.get(wanted.name());
            DesiredPodGroup desired = withPlacement(wanted, current, placed.get(wanted.name()), result, findings);
            if (desired.ownership() == DesiredPodGroup.Ownership.OWNED) {
                if (current != null
                        && current.ours()
                        && current.gang() != null
                        && !current.gang().equals(scope)) {
                    // two scopes whose names give one PodGroup name (names are injective, but a tenant may copy the
                    // annotation): the one that has it keeps it, and this scope is not written over it
                    findings.addAll(refusal(
                            result,
                            WorkloadReason.NAME_TAKEN,
                            desired.name(),
                            "PodGroup " + desired.name() + " belongs to " + current.gang()
                                    + " (its " + PodGroupBuilder.GANG_ANNOTATION
                                    + " annotation); " + scope + " gets no PodGroup while it does: rename one of the"
                                    + " two"));
                    continue;
                }
                ownedWanted.add(desired.name());
                if (heldBack(desired, current, inCluster, result, findings)) {
                    continue;
                }
                DesiredPodGroup write = queueUsable(desired, current, queues, result, findings);
                if (write == null
                        || exceeds(write, current, queues, bounds, result, findings)
                        || overReserved(write, current, bounds, reserved, result, findings)) {
                    continue;
                }
                if (current == null && !owned.contains(write.name()) && !room(write, owned, bounds, result, findings)) {
                    continue;
                }
                steps.add(new Apply(write));
            } else if (current != null && !current.ours()) {
                adoptedWanted.add(desired.name());
                steps.add(new Apply(desired));
            }
            // an adopted PodGroup the other controller has not made yet: its creation brings this scope back
        }
        if (Finding.anyRejection(result.findings())) {
            // a refused edit changes nothing: the gang keeps the PodGroups it had until the annotations are fixed
            // or removed, so pods created meanwhile still join them
            return new Plan(steps, findings);
        }
        for (ObservedPodGroup pg : observed) {
            if (!scope.equals(pg.gang())) {
                continue;
            }
            if (pg.ours() && !ownedWanted.contains(pg.name())) {
                steps.add(new Delete(pg.namespace(), pg.name()));
            } else if (!pg.ours() && pg.ownsFields() && !adoptedWanted.contains(pg.name())) {
                steps.add(new Release(pg.namespace(), pg.name()));
            }
        }
        return new Plan(steps, findings);
    }

    /** Whether an owned PodGroup waits unwritten: one the bridge did not make holds its name, or its tier has no HyperNodes. */
    private static boolean heldBack(
            DesiredPodGroup desired,
            ObservedPodGroup current,
            TierCatalog inCluster,
            ScopeResult result,
            List<Finding> findings) {
        if (current != null && !current.ours()) {
            findings.addAll(about(
                    result,
                    WorkloadReason.NAME_TAKEN,
                    desired.name(),
                    "PodGroup " + desired.name() + " exists and was not made by the bridge; it is left alone"));
            return true;
        }
        if (current == null && inCluster != null && !tierExists(desired, inCluster)) {
            findings.addAll(about(
                    result,
                    WorkloadReason.WAITING_FOR_HYPER_NODES,
                    desired.name(),
                    "PodGroup "
                            + desired.name() + " waits for the HyperNodes of tier "
                            + desired.spec().getNetworkTopology().getHighestTierAllowed()
                            + " (Volcano would place the"
                            + " gang anywhere without them); its pods are tied to it already"));
            return true;
        }
        return false;
    }

    /** Whether a new PodGroup fits under the namespace's limit of the bridge's PodGroups (it is then counted in). */
    private static boolean room(
            DesiredPodGroup write, Set<String> owned, Bounds bounds, ScopeResult result, List<Finding> findings) {
        if (owned.size() >= bounds.maxPerNamespace()) {
            findings.addAll(about(
                    result,
                    WorkloadReason.POD_GROUP_LIMIT_REACHED,
                    write.name(),
                    "PodGroup "
                            + write.name() + " is not made: namespace " + write.namespace() + " holds "
                            + owned.size() + " PodGroups of the bridge, the most it makes in one namespace"
                            + " (topobridge.workloads.max-podgroups-per-namespace="
                            + bounds.maxPerNamespace()
                            + "); it is made once there is room"));
            return false;
        }
        return owned.add(write.name());
    }

    private static DesiredPodGroup withPlacement(
            DesiredPodGroup desired,
            ObservedPodGroup current,
            Achieved achieved,
            ScopeResult result,
            List<Finding> findings) {
        Map<String, String> placement = new TreeMap<>();
        if (achieved != null) {
            placement.put(Topobridge.ACHIEVED_TIER, achieved.gang().value());
            if (!achieved.subGroups().isEmpty()) {
                placement.put(Topobridge.ACHIEVED_SUBGROUP_TIERS, achieved.subGroupSummary());
            }
            var topology = desired.spec().getNetworkTopology();
            if (topology != null
                    && topology.getMode() == NetworkTopologySpec.ModeEnum.SOFT
                    && topology.getHighestTierAllowed() != null
                    && (achieved.gang().tier() == null || achieved.gang().tier() > topology.getHighestTierAllowed())) {
                for (ObjectRef subject : result.subjects()) {
                    findings.add(Finding.info(
                                    WorkloadReason.PLACED_ABOVE_TIER,
                                    subject,
                                    subject + ": soft gang "
                                            + desired.name() + " prefers tier " + topology.getHighestTierAllowed()
                                            + " or below; Volcano"
                                            + " placed it within "
                                            + achieved.gang().describe())
                            .withKey(desired.name()));
                }
            }
        } else if (current != null) {
            placement.putAll(current.placement());
        }
        if (placement.isEmpty()) {
            return desired;
        }
        Map<String, String> annotations = new TreeMap<>(desired.annotations());
        annotations.putAll(placement);
        return desired.withAnnotations(annotations);
    }

    /**
     * The PodGroup to write, or null. Volcano's admission refuses a new PodGroup whose queue is missing or not Open;
     * an existing one whose queue changed to such a queue keeps its current one (Volcano checks queues only on create
     * and would then skip the gang for good); an existing one whose own queue closed is written as it is.
     */
    private static DesiredPodGroup queueUsable(
            DesiredPodGroup desired,
            ObservedPodGroup current,
            QueueStates queues,
            ScopeResult result,
            List<Finding> findings) {
        String name = desired.spec().getQueue();
        if (name == null || !queues.known()) {
            return desired;
        }
        String state = queues.states().get(name);
        boolean missing = !queues.states().containsKey(name);
        boolean closed = !missing && state != null && !state.isEmpty() && !"Open".equals(state);
        if (!missing && !closed) {
            return desired;
        }
        if (current != null && current.queue() != null && !current.queue().equals(name)) {
            findings.addAll(about(
                    result,
                    WorkloadReason.QUEUE_CHANGE_HELD,
                    desired.name(),
                    "Volcano queue "
                            + UserText.quote(name) + " of PodGroup " + desired.name()
                            + (missing ? " does not exist" : " is " + state + ", not Open")
                            + "; the PodGroup stays in queue " + UserText.quote(current.queue())
                            + " until it is usable"));
            return desired.withQueue(current.queue());
        }
        findings.addAll(about(
                result,
                missing ? WorkloadReason.QUEUE_MISSING : WorkloadReason.QUEUE_NOT_OPEN,
                desired.name(),
                "Volcano queue " + UserText.quote(name) + " of PodGroup " + desired.name()
                        + (missing
                                ? " does not exist; Volcano refuses the PodGroup until it does"
                                : " is " + state + ", not Open; Volcano refuses new PodGroups in it")));
        return current != null ? desired : null;
    }

    /**
     * Whether the gang asks for more than its queue may ever hold or than all nodes together have: such a PodGroup
     * could never start, and once Inqueue it would hold its minResources in the queue, so it is not written (a new one
     * is not made, an existing one is kept as it was) and said so.
     */
    private static boolean exceeds(
            DesiredPodGroup desired,
            ObservedPodGroup current,
            QueueStates queues,
            Bounds bounds,
            ScopeResult result,
            List<Finding> findings) {
        Amounts need = Amounts.parse(desired.spec().getMinResources());
        if (need.isEmpty()) {
            return false;
        }
        String kept = current == null ? "it is not made" : "the PodGroup is kept as it was";
        String queue = desired.spec().getQueue();
        Map<String, BigDecimal> capability =
                queue == null || !queues.known() ? null : queues.capability().get(queue);
        List<String> overQueue = capability == null ? List.of() : over(need, capability::get);
        if (!overQueue.isEmpty()) {
            findings.addAll(refusal(
                    result,
                    WorkloadReason.GANG_EXCEEDS_QUEUE,
                    desired.name(),
                    "PodGroup "
                            + desired.name() + " needs more than queue " + UserText.quote(queue)
                            + " may ever hold (its"
                            + " capability): " + String.join(", ", overQueue) + "; " + kept));
            return true;
        }
        Amounts cluster = bounds.clusterAllocatable();
        List<String> overCluster = cluster == null ? List.of() : over(need, cluster::get);
        if (!overCluster.isEmpty()) {
            findings.addAll(refusal(
                    result,
                    WorkloadReason.GANG_EXCEEDS_CLUSTER,
                    desired.name(),
                    "PodGroup "
                            + desired.name() + " needs more than all nodes together can allocate: "
                            + String.join(", ", overCluster)
                            + "; " + kept));
            return true;
        }
        return false;
    }

    /** Each resource of {@code need} above its {@code limit} (none: unlimited), as {@code cpu 12 > 8}. */
    private static List<String> over(Amounts need, Function<String, BigDecimal> limit) {
        return need.values().entrySet().stream()
                .filter(e -> limit.apply(e.getKey()) != null && e.getValue().compareTo(limit.apply(e.getKey())) > 0)
                .map(e -> e.getKey() + " " + Amounts.show(e.getKey(), e.getValue()) + " > "
                        + Amounts.show(e.getKey(), limit.apply(e.getKey())))
                .toList();
    }

    /**
     * Whether a new or growing PodGroup would take its namespace's PodGroups over what they may reserve together (its
     * ResourceQuotas, a share of the cluster, fixed limits): then it is not written (a new one is not made, an existing
     * one is kept as it was) and said so. What it reserves counts for the scope's later PodGroups either way.
     */
    private static boolean overReserved(
            DesiredPodGroup desired,
            ObservedPodGroup current,
            Bounds bounds,
            Map<String, Reservations.Reserved> reserved,
            ScopeResult result,
            List<Finding> findings) {
        Reservations.Reserved need = ObservedPodGroup.reserved(desired.spec());
        String priorityClass = need.priorityClass();
        boolean grows = current == null || !current.reserved().covers(need);
        var breach = grows && bounds.reservations().bounded()
                ? bounds.reservations().breach(need, besides(reserved, desired.name()))
                : Optional.<Reservations.Breach>empty();
        if (breach.isEmpty()) {
            reserved.put(desired.name(), need);
            return false;
        }
        var b = breach.get();
        String kept = current == null ? "it is not made" : "the PodGroup is kept as it was";
        findings.addAll(refusal(
                result,
                b.priorityClasses()
                        ? WorkloadReason.PRIORITY_CLASS_NOT_ALLOWED
                        : WorkloadReason.NAMESPACE_RESERVATION_EXCEEDED,
                desired.name(),
                "PodGroup " + desired.name()
                        + (b.priorityClasses() ? " of priority class " + UserText.quote(priorityClass) : "")
                        + " would take what namespace " + desired.namespace() + "'s PodGroups reserve together to "
                        + b.describe() + "; " + kept + (current == null ? " until there is room" : "")));
        if (current != null) {
            reserved.put(desired.name(), current.reserved());
        }
        return true;
    }

    /**
     * What the namespace's PodGroups of the bridge reserve while one scope is planned, by name: the other scopes' as the
     * cache shows them, the scope's own as decided so far (as they are now until decided).
     */
    private static Map<String, Reservations.Reserved> reservedSoFar(
            GangScope scope, List<ObservedPodGroup> observed, List<DesiredPodGroup> wanted) {
        Set<String> names = wanted.stream().map(DesiredPodGroup::name).collect(Collectors.toSet());
        Map<String, Reservations.Reserved> out = new HashMap<>();
        observed.stream()
                .filter(pg -> pg.ours() && (!scope.equals(pg.gang()) || names.contains(pg.name())))
                .forEach(pg -> out.put(pg.name(), pg.reserved()));
        return out;
    }

    private static List<Reservations.Reserved> besides(Map<String, Reservations.Reserved> reserved, String name) {
        return reserved.entrySet().stream()
                .filter(e -> !e.getKey().equals(name))
                .map(Map.Entry::getValue)
                .toList();
    }

    /** Whether a hard gang tier is one the cluster's HyperNodes have (soft or no topology needs none). */
    private static boolean tierExists(DesiredPodGroup desired, TierCatalog inCluster) {
        var topology = desired.spec().getNetworkTopology();
        if (topology == null
                || topology.getMode() != NetworkTopologySpec.ModeEnum.HARD
                || topology.getHighestTierAllowed() == null) {
            return true;
        }
        return inCluster.top() >= topology.getHighestTierAllowed();
    }

    /** The same refusal on every workload of the scope ({@code key}: the PodGroup it is about). */
    private static List<Finding> refusal(ScopeResult result, WorkloadReason reason, String key, String message) {
        return WorkloadReason.refusals(reason, result.subjects(), key, message);
    }

    /** The same warning on every workload of the scope ({@code key}: the PodGroup it is about). */
    public static List<Finding> about(ScopeResult result, WorkloadReason reason, String key, String message) {
        return WorkloadReason.warnings(reason, result.subjects(), key, message);
    }
}
