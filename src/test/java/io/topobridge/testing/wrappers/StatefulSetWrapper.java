package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;

/** A StatefulSet whose pods carry {@code app: <name>}, pods started in parallel; one pod by default. */
public final class StatefulSetWrapper extends AppWrapper<StatefulSetWrapper, StatefulSet> {

    private String podManagementPolicy = "Parallel";

    private StatefulSetWrapper(String name, String namespace) {
        super(name, namespace);
    }

    public static StatefulSetWrapper make(String name, String namespace) {
        return new StatefulSetWrapper(name, namespace);
    }

    /** Pods one after the other, each when the previous is ready (the StatefulSet default). */
    public StatefulSetWrapper orderedReady() {
        podManagementPolicy = "OrderedReady";
        return this;
    }

    @Override
    public StatefulSet obj() {
        return apps(new StatefulSetBuilder()
                .withKind("StatefulSet")
                .withMetadata(metadata())
                .withNewSpec()
                .withReplicas(replicas)
                .withServiceName(name)
                .withPodManagementPolicy(podManagementPolicy)
                .withSelector(selector())
                .withTemplate(pod.template())
                .endSpec()
                .build());
    }
}
