package io.topobridge.core.diagnosis;

import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import java.util.ArrayList;
import java.util.List;

/** The doctor's {@code hypernode-forest} check: a HyperNode forest Volcano can schedule with. */
final class HyperNodeForestCheck {

    static DoctorCheck.Result check(DoctorInputs in) {
        Forest forest = Forest.of(in.hyperNodes());
        List<Forest.Problem> problems = forest.problems();
        if (problems.isEmpty()) {
            return DoctorCheck.ok(
                    in.hyperNodes().size() + " HyperNodes form trees: one parent each," + " no cycle, one depth");
        }
        List<Finding> findings = new ArrayList<>();
        for (Forest.Problem p : problems) {
            int slash = p.subject().indexOf('/');
            String kind = p.subject().substring(0, slash);
            String name = p.subject().substring(slash + 1);
            ObjectRef ref = "Node".equals(kind)
                    ? ObjectRef.node(name)
                    : new ObjectRef(VolcanoApi.HYPERNODE_API_VERSION, kind, null, name, null);
            findings.add(Finding.warning(
                            DoctorReason.HYPER_NODE_FOREST_BROKEN,
                            ref,
                            p.message() + "; Volcano cannot place topology-aware gangs while this lasts")
                    .withKey(p.kind()));
        }
        List<String> lines = problems.stream()
                .limit(DoctorCheck.MAX_NAMED)
                .map(Forest.Problem::message)
                .toList();
        return new DoctorCheck.Result(
                DoctorCheck.Status.FAILURE,
                problems.size() + " problem(s): " + String.join("; ", lines)
                        + (problems.size() > DoctorCheck.MAX_NAMED ? "; …" : ""),
                findings);
    }
}
