package io.topobridge.core.kinds.lws;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.Topobridge;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.kind.Pods;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The groups of a LeaderWorkerSet with {@code groupIdentity: Hash}, as the cluster shows them. LWS runs the leaders as a
 * Deployment's pods and gives each new leader a random group key at admission (label
 * {@code leaderworkerset.sigs.k8s.io/group-key}, copied to the group-index label and, through the worker StatefulSet
 * named after the leader, to the workers): nothing can compute the keys, they are read where they are written. A
 * group is its leader pod, and its PodGroup is owned by that pod, so it goes with its group even while the bridge is
 * down. Keys are read from, in turn: the live leader pods, the worker StatefulSets (controlled by their leader pod),
 * and the PodGroups the bridge made for the LWS's groups (kept until their leader pod, and so the garbage collector,
 * takes them: a pod cache still being listed after a restart must not make the bridge delete them).
 */
final class HashGroups {

    /** A valid label value (PodGroup labels must be). */
    private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    private HashGroups() {}

    /** The group keys of the LWS, each with a reference to its leader pod (null when the pod's uid is unknown). */
    static Map<String, OwnerReference> observe(Workload lws, GangScope scope, Snapshot snapshot) {
        Map<String, OwnerReference> out = new TreeMap<>();
        String ns = lws.namespace();
        for (Pod pod : snapshot.lookup().pods(ns)) {
            Map<String, String> labels = Pods.labels(pod);
            String key = Pods.groupKey(pod);
            if (key != null
                    && lws.name().equals(labels.get(WorkloadLabels.LWS_NAME))
                    && "0".equals(labels.get(WorkloadLabels.LWS_WORKER_INDEX))) {
                out.putIfAbsent(
                        key,
                        leader(pod.getMetadata().getName(), pod.getMetadata().getUid()));
            }
        }
        for (Workload sts : snapshot.list(WorkloadKind.STATEFUL_SET, ns)) {
            String key = sts.labels().get(WorkloadLabels.LWS_GROUP_KEY);
            if (key == null || key.isEmpty() || !lws.name().equals(sts.labels().get(WorkloadLabels.LWS_NAME))) {
                continue;
            }
            Optional<OwnerReference> owner =
                    Workload.controller(sts.metadata()).filter(o -> "Pod".equals(o.getKind()) && o.getName() != null);
            owner.ifPresent(o -> out.putIfAbsent(key, leader(o.getName(), o.getUid())));
        }
        for (HasMetadata pg : snapshot.lookup().podGroups(ns)) {
            Map<String, String> annotations = pg.getMetadata().getAnnotations();
            if (annotations == null
                    || !Topobridge.managed(pg)
                    || !scope.key().equals(annotations.get(PodGroupBuilder.GANG_ANNOTATION))) {
                continue;
            }
            String key = pg.getMetadata().getLabels().get(WorkloadLabels.LWS_GROUP_KEY);
            Optional<OwnerReference> owner = Workload.controller(pg.getMetadata())
                    .filter(o -> "Pod".equals(o.getKind()) && o.getName() != null && o.getUid() != null);
            if (key != null && !key.isEmpty() && owner.isPresent()) {
                out.putIfAbsent(key, leader(owner.get().getName(), owner.get().getUid()));
            }
        }
        return out;
    }

    /**
     * The reference a group's PodGroup holds to its leader pod, written the same way whichever object showed it (so a
     * resync writes nothing); null when the pod's uid is unknown (an owner reference needs it).
     */
    public static OwnerReference leader(String pod, String uid) {
        if (uid == null || uid.isEmpty()) {
            return null;
        }
        return new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(pod)
                .withUid(uid)
                .withController(true)
                .build();
    }

    /** The labels a group's PodGroup carries: the LWS's name and the group key, as the group's pods carry them. */
    public static Map<String, String> labels(String lws, String key) {
        Map<String, String> out = new TreeMap<>();
        if (LABEL_VALUE.matcher(lws).matches()) {
            out.put(WorkloadLabels.LWS_NAME, lws);
        }
        if (LABEL_VALUE.matcher(key).matches()) {
            out.put(WorkloadLabels.LWS_GROUP_KEY, key);
        }
        return out;
    }
}
