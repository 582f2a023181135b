package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;

/** A Pod with one container, as a workload's controller makes it: owned, labelled, bound or pending. */
public final class PodWrapper extends WorkloadWrapper<PodWrapper, Pod> {

    private String ownerKind;
    private String ownerApiVersion;
    private String ownerName;
    private String ownerUid;
    private String nodeName;
    private String phase = "Pending";

    private PodWrapper(String name, String namespace) {
        super(name, namespace);
    }

    public static PodWrapper make(String name, String namespace) {
        return new PodWrapper(name, namespace);
    }

    /** The controller that made it (its controller owner reference). */
    public PodWrapper ownedBy(String apiVersion, String kind, String owner, String uidOfOwner) {
        ownerApiVersion = apiVersion;
        ownerKind = kind;
        ownerName = owner;
        ownerUid = uidOfOwner;
        return this;
    }

    /** Bound to {@code node} and running. */
    public PodWrapper runningOn(String node) {
        nodeName = node;
        phase = "Running";
        return this;
    }

    @Override
    public Pod obj() {
        var meta = metadata();
        meta.setLabels(labels.isEmpty() ? null : new java.util.LinkedHashMap<>(labels));
        if (ownerKind != null) {
            meta.setOwnerReferences(java.util.List.of(new OwnerReferenceBuilder()
                    .withApiVersion(ownerApiVersion)
                    .withKind(ownerKind)
                    .withName(ownerName)
                    .withUid(ownerUid)
                    .withController(true)
                    .build()));
        }
        var spec = pod.spec();
        spec.setNodeName(nodeName);
        Pod p = new PodBuilder()
                .withMetadata(meta)
                .withSpec(spec)
                .withStatus(new PodStatusBuilder().withPhase(phase).build())
                .build();
        p.setApiVersion("v1");
        p.setKind("Pod");
        return p;
    }
}
