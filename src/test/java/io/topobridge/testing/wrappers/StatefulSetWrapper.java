package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;

/** A StatefulSet whose pods carry {@code app: <name>}, pods started in parallel; one pod by default. */
public final class StatefulSetWrapper extends WorkloadWrapper<StatefulSetWrapper, StatefulSet> {

    private int replicas = 1;
    private String podManagementPolicy = "Parallel";

    private StatefulSetWrapper(String name, String namespace) {
        super(name, namespace);
        podLabel("app", name);
    }

    public static StatefulSetWrapper make(String name, String namespace) {
        return new StatefulSetWrapper(name, namespace);
    }

    public StatefulSetWrapper replicas(int value) {
        replicas = value;
        return this;
    }

    /** Pods one after the other, each when the previous is ready (the StatefulSet default). */
    public StatefulSetWrapper orderedReady() {
        podManagementPolicy = "OrderedReady";
        return this;
    }

    @Override
    public StatefulSet obj() {
        StatefulSet s = new StatefulSetBuilder()
                .withMetadata(metadata())
                .withNewSpec()
                .withReplicas(replicas)
                .withServiceName(name)
                .withPodManagementPolicy(podManagementPolicy)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withTemplate(pod.template())
                .endSpec()
                .build();
        s.setApiVersion("apps/v1");
        s.setKind("StatefulSet");
        return s;
    }
}
