package io.topobridge.core.diagnosis;

import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/** The doctor's {@code queues} check: every queue the workloads name exists and is open. */
final class QueuesCheck {

    static DoctorCheck.Result check(DoctorInputs in) {
        if (in.queueStates() == null) {
            return new DoctorCheck.Result(DoctorCheck.Status.WARNING, "Volcano's queues cannot be read", List.of());
        }
        List<Finding> findings = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        new TreeMap<>(in.queuesNamedBy()).forEach((queue, namers) -> {
            String state = in.queueStates().get(queue);
            String by = " (named by " + DoctorCheck.named(namers) + ")";
            ObjectRef ref = new ObjectRef(VolcanoApi.PODGROUP_API_VERSION, "Queue", null, queue, null);
            if (state == null) {
                problems.add("queue " + UserText.quote(queue) + " does not exist" + by);
                findings.add(Finding.warning(
                        DoctorReason.QUEUE_NOT_FOUND,
                        ref,
                        "Volcano queue " + UserText.quote(queue) + " does not exist" + by
                                + "; Volcano refuses PodGroups in it"));
            } else if (!state.isEmpty() && !"Open".equals(state)) {
                problems.add("queue " + UserText.quote(queue) + " is " + UserText.quote(state) + by);
                findings.add(Finding.warning(
                        DoctorReason.QUEUE_CLOSED,
                        ref,
                        "Volcano queue " + UserText.quote(queue) + " is " + UserText.quote(state) + ", not Open" + by
                                + "; Volcano refuses new PodGroups in it"));
            }
        });
        if (problems.isEmpty()) {
            String named = String.join(", ", new TreeSet<>(in.queuesNamedBy().keySet()));
            return DoctorCheck.ok(
                    in.queuesNamedBy().isEmpty()
                            ? "no queue is named"
                            : "every named queue exists and is Open: " + named);
        }
        return DoctorCheck.failure(problems, findings);
    }
}
