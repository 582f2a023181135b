package io.topobridge.core.render.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.workload.WorkloadKind;

/** A controller of the objects of one workload kind (any version of its group). */
public abstract class KindController implements Controller {

    private final WorkloadKind kind;

    protected KindController(WorkloadKind kind) {
        this.kind = kind;
    }

    @Override
    public final boolean actsOn(HasMetadata object) {
        return WorkloadKind.of(object.getApiVersion(), object.getKind()).orElse(null) == kind;
    }
}
