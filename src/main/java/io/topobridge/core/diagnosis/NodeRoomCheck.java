package io.topobridge.core.diagnosis;

import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.NodeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** The doctor's {@code node-room} check: nodes that take no new pods, and the running gangs that lose room by them. */
final class NodeRoomCheck {

    /**
     * Nodes whose resources are no room for new pods: cordoned (on purpose, so said but not a problem), not ready (a
     * warning: a broken kubelet or node), and accelerator nodes with NoSchedule/NoExecute taints, whose room only
     * pods that tolerate them get. {@code auto} and explain leave all of them out of a gang's room.
     */
    static DoctorCheck.Result check(DoctorInputs in) {
        List<String> cordoned = new ArrayList<>();
        List<String> notReady = new ArrayList<>();
        Map<String, List<String>> taintedBy = new TreeMap<>();
        int accelerators = 0;
        for (NodeView node : in.nodes()) {
            boolean accelerator = node.accelerator(in.accelerators());
            accelerators += accelerator ? 1 : 0;
            if (node.state().cordoned()) {
                cordoned.add(node.name());
            } else if (!node.state().isReady()) {
                notReady.add(node.name() + " (Ready=" + node.state().ready() + ")");
            } else if (accelerator && !node.state().taints().isEmpty()) {
                taintedBy
                        .computeIfAbsent(node.state().taints().get(0).toString(), k -> new ArrayList<>())
                        .add(node.name());
            }
        }
        int total = in.nodes().size();
        List<String> parts = new ArrayList<>();
        if (!cordoned.isEmpty()) {
            parts.add(cordoned.size() + " cordoned (" + DoctorCheck.named(cordoned) + ")");
        }
        if (!notReady.isEmpty()) {
            parts.add(notReady.size() + " not ready (" + DoctorCheck.named(notReady) + ")");
        }
        String message = parts.isEmpty()
                ? total + " node(s), every one takes new pods"
                : (cordoned.size() + notReady.size()) + " of " + total + " node(s) take no new pods, so their"
                        + " resources are no room for any gang: " + String.join("; ", parts);
        if (!taintedBy.isEmpty()) {
            List<String> taints = new ArrayList<>();
            taintedBy.forEach((taint, nodes) ->
                    taints.add(taint + " on " + nodes.size() + " (" + DoctorCheck.named(nodes) + ")"));
            int tainted = taintedBy.values().stream().mapToInt(List::size).sum();
            message += "; " + tainted + " of " + accelerators + " accelerator node(s) are tainted, room only for pods"
                    + " that tolerate it: " + String.join("; ", taints);
        }
        boolean stuck = in.gangDomains().values().stream().anyMatch(GangDomain::stuck);
        message += gangs(in.gangDomains());
        return new DoctorCheck.Result(
                notReady.isEmpty() && !stuck ? DoctorCheck.Status.OK : DoctorCheck.Status.WARNING, message, List.of());
    }

    /**
     * {@code ; 2 running gang(s) whose domain lost capacity: …}: running hard-tier gangs whose domain lost capacity,
     * worst first, each with its domain and what it lost; empty for none.
     */
    private static String gangs(Map<String, GangDomain> domains) {
        if (domains.isEmpty()) {
            return "";
        }
        List<String> shown = domains.entrySet().stream()
                .sorted(Map.Entry.comparingByValue(GangDomain.WORST_FIRST))
                .map(e -> e.getKey() + " in "
                        + Objects.requireNonNullElse(e.getValue().domain(), "a domain no longer there") + " ("
                        + String.join("; ", lost(e.getValue())) + ")")
                .toList();
        return "; " + shown.size() + " running gang(s) whose domain lost capacity: " + DoctorCheck.firstNamed(shown);
    }

    /** What one gang's domain lost: why it is stuck, its pods pending, the nodes taking no new pods, its pods lost. */
    private static List<String> lost(GangDomain d) {
        List<String> what = new ArrayList<>();
        if (d.stuck()) {
            what.add(PendingReason.of(d.verdict()).reason());
        }
        if (!d.pending().isEmpty()) {
            what.add(d.pending().size() + " pod(s) pending" + (d.since() == null ? "" : " since " + d.since()));
        }
        if (!d.unusable().isEmpty()) {
            what.add("no new pods on " + String.join(", ", d.unusable()));
        }
        if (!d.lost().isEmpty()) {
            what.add("lost " + String.join(", ", d.lost()));
        }
        return what;
    }
}
