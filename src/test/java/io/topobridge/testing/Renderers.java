package io.topobridge.testing;

import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.render.Renderer;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.reconcile.TestSettings;
import java.time.Clock;

/** Renderers for tests: the default reconcile, reservation and accelerator settings, on the system clock. */
public final class Renderers {

    private Renderers() {}

    /** A renderer with the given settings and the defaults for everything else. */
    public static Renderer of(TopologySettings topology, WorkloadSettings workloads, AdmissionSettings admission) {
        return new Renderer(
                topology,
                workloads,
                admission,
                TestSettings.defaults(),
                io.topobridge.core.workload.reconcile.TestSettings.DEFAULT_RESERVATIONS,
                Accelerators.DEFAULT,
                Clock.systemUTC());
    }
}
