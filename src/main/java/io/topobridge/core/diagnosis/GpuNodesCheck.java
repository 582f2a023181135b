package io.topobridge.core.diagnosis;

import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.NodeView;
import java.util.ArrayList;
import java.util.List;

/** The doctor's {@code gpu-nodes} check: accelerator nodes that lie in no topology tree. */
final class GpuNodesCheck {

    static DoctorCheck.Result check(DoctorInputs in) {
        Forest forest = Forest.of(in.hyperNodes());
        List<String> outside = new ArrayList<>();
        int gpus = 0;
        for (NodeView node : in.nodes()) {
            if (node.accelerator(in.accelerators())) {
                gpus++;
                if (!forest.placed(node.name())) {
                    outside.add(node.name());
                }
            }
        }
        outside.sort(null);
        if (outside.isEmpty()) {
            return DoctorCheck.ok(gpus + " accelerator node(s), every one in a topology tree");
        }
        // each node is already a GpuNodeOutsideTopology finding of the topology (one Event per node is enough)
        return new DoctorCheck.Result(
                DoctorCheck.Status.WARNING,
                outside.size() + " of " + gpus
                        + " accelerator node(s) in no topology tree, so hard-topology gangs can never use them: "
                        + DoctorCheck.named(outside),
                List.of());
    }
}
