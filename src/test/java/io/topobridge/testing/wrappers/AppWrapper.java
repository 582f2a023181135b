package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;

/**
 * A built-in workload whose pods carry {@code app: <name>} and are selected by it; one pod by default.
 *
 * @param <W> the wrapper itself, so that chained calls keep its own methods
 * @param <T> the object it makes
 */
public abstract class AppWrapper<W extends AppWrapper<W, T>, T extends HasMetadata> extends WorkloadWrapper<W, T> {

    protected int replicas = 1;

    protected AppWrapper(String name, String namespace) {
        super(name, namespace);
        podLabel("app", name);
    }

    public W replicas(int value) {
        replicas = value;
        return self();
    }

    /** The selector of the workload's pods: {@code app: <name>}. */
    protected LabelSelector selector() {
        return new LabelSelectorBuilder().addToMatchLabels("app", name).build();
    }

    /** {@code object} with its apiVersion set: {@code apps/v1}. */
    protected static <X extends HasMetadata> X apps(X object) {
        object.setApiVersion("apps/v1");
        return object;
    }
}
