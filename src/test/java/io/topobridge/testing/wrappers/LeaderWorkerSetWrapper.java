package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.LinkedHashMap;
import java.util.Map;

/** A LeaderWorkerSet (leaderworkerset.x-k8s.io/v1): one group of size 1 by default, leader and workers alike. */
public final class LeaderWorkerSetWrapper extends WorkloadWrapper<LeaderWorkerSetWrapper, GenericKubernetesResource> {

    public static final String API_VERSION = "leaderworkerset.x-k8s.io/v1";

    private Object replicas = 1;
    private Object size = 1;
    private Integer subGroupSize;
    private String groupIdentity;
    private String startupPolicy;
    private String restartPolicy;

    private LeaderWorkerSetWrapper(String name, String namespace) {
        super(name, namespace);
    }

    public static LeaderWorkerSetWrapper make(String name, String namespace) {
        return new LeaderWorkerSetWrapper(name, namespace);
    }

    /** Groups; any value, as a hostile or careless user might write it. */
    public LeaderWorkerSetWrapper replicas(Object value) {
        replicas = value;
        return this;
    }

    /** Pods per group, the leader included. */
    public LeaderWorkerSetWrapper size(Object value) {
        size = value;
        return this;
    }

    public LeaderWorkerSetWrapper subGroupSize(int value) {
        subGroupSize = value;
        return this;
    }

    /** {@code Ordinal} (LWS's default) or {@code Hash}. */
    public LeaderWorkerSetWrapper groupIdentity(String value) {
        groupIdentity = value;
        return this;
    }

    /** {@code LeaderCreated} (LWS's default) or {@code LeaderReady}. */
    public LeaderWorkerSetWrapper startupPolicy(String value) {
        startupPolicy = value;
        return this;
    }

    /** {@code RecreateGroupOnPodRestart} (LWS's default: a pod failed or deleted recreates its group) or {@code None}. */
    public LeaderWorkerSetWrapper restartPolicy(String value) {
        restartPolicy = value;
        return this;
    }

    @Override
    public GenericKubernetesResource obj() {
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("size", size);
        template.put("workerTemplate", pod.templateMap());
        if (subGroupSize != null) {
            template.put("subGroupPolicy", Map.of("subGroupSize", subGroupSize));
        }
        if (restartPolicy != null) {
            template.put("restartPolicy", restartPolicy);
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", replicas);
        spec.put("leaderWorkerTemplate", template);
        if (startupPolicy != null) {
            spec.put("startupPolicy", startupPolicy);
        }
        if (groupIdentity != null) {
            spec.put("groupIdentity", groupIdentity);
        }
        var lws = new GenericKubernetesResource();
        lws.setApiVersion(API_VERSION);
        lws.setKind("LeaderWorkerSet");
        lws.setMetadata(metadata());
        lws.setAdditionalProperty("spec", spec);
        return lws;
    }
}
