package io.topobridge.core.render.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.workload.WorkloadKind;

/** A controller of the objects of one workload kind (any version of its group). */
public abstract class KindController implements Controller {

    private final WorkloadKind kind;
    private final boolean divisible;

    /** A controller of {@code kind}, whose children are a useful preview in part when {@code divisible}. */
    protected KindController(WorkloadKind kind, boolean divisible) {
        this.kind = kind;
        this.divisible = divisible;
    }

    @Override
    public final boolean divisible() {
        return divisible;
    }

    @Override
    public final boolean actsOn(HasMetadata object) {
        return WorkloadKind.of(object.getApiVersion(), object.getKind()).orElse(null) == kind;
    }
}
