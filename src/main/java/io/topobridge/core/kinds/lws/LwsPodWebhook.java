package io.topobridge.core.kinds.lws;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Names;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * LeaderWorkerSet's pod webhook (v0.9.0, {@code PodWebhook.Default}) on a pod that carries an LWS name: a leader gets
 * its group index (its name's ordinal), the group key ({@code SHA-1} of {@code <namespace>/<leader>}) and, with
 * subgroups that include the leader, subgroup 0 and its key; a worker gets its worker index (its name's ordinal) and,
 * with subgroups, its subgroup index and key. A key hashed from a generated name is itself generated. Without LWS's
 * Volcano provider the webhook adds nothing else to the metadata.
 */
public final class LwsPodWebhook {

    private static final String HEX40 = "[0-9a-f]{40}";

    /** The pod as LWS's webhook lets it in; a pod it would refuse is an {@link IllegalArgumentException}. */
    public static HasMetadata admit(HasMetadata pod, Context ctx) {
        Map<String, String> labels = new LinkedHashMap<>(Build.labels(pod));
        if (!labels.containsKey(WorkloadLabels.LWS_NAME)) {
            return pod;
        }
        String name = Build.name(pod);
        Map<String, String> annotations = Build.annotations(pod);
        String size = annotations.get(LwsShape.LWS_SIZE);
        if (size == null) {
            throw refused("the size annotation is missing");
        }
        int podCount = number(size, "size");
        boolean subGroup = annotations.containsKey(LwsShape.LWS_SUBGROUP_SIZE)
                && Build.orEmpty(labels.get(WorkloadLabels.LWS_SUBGROUP_INDEX)).isEmpty();
        if ("0".equals(labels.get(WorkloadLabels.LWS_WORKER_INDEX))) {
            if (!labels.containsKey(WorkloadLabels.LWS_GROUP_INDEX)) {
                int group = Build.ordinal(name);
                if (group < 0) {
                    throw refused("no group ordinal in the name");
                }
                labels.put(WorkloadLabels.LWS_GROUP_INDEX, String.valueOf(group));
            }
            if (!labels.containsKey(WorkloadLabels.LWS_GROUP_KEY)) {
                labels.put(
                        WorkloadLabels.LWS_GROUP_KEY,
                        key(Build.ns(pod) + "/" + name, name, ctx, "LeaderWorkerSet group-key"));
            }
            String type = annotations.get(LwsShape.LWS_SUBGROUP_POLICY_TYPE);
            if (subGroup && !LwsShape.LEADER_EXCLUDED.equals(type)) {
                labels.put(WorkloadLabels.LWS_SUBGROUP_INDEX, "0");
                labels.put(LwsShape.LWS_SUBGROUP_KEY, key(name + "/0", name, ctx, "LeaderWorkerSet subgroup-key"));
            }
        } else {
            int worker = Build.ordinal(name);
            if (worker < 0) {
                throw refused("no worker ordinal in the name");
            }
            labels.put(WorkloadLabels.LWS_WORKER_INDEX, String.valueOf(worker));
            if (subGroup) {
                int k = number(annotations.get(LwsShape.LWS_SUBGROUP_SIZE), "subgroup size");
                if (k < 1) {
                    throw refused("subgroup size " + k + " is less than 1");
                }
                String index = String.valueOf((podCount - 1) % k == 0 ? (worker - 1) / k : worker / k);
                String leader = Build.orEmpty(annotations.get(LwsShape.LWS_LEADER_NAME));
                labels.put(WorkloadLabels.LWS_SUBGROUP_INDEX, index);
                labels.put(
                        LwsShape.LWS_SUBGROUP_KEY,
                        key(leader + "/" + index, leader, ctx, "LeaderWorkerSet subgroup-key"));
            }
        }
        pod.getMetadata().setLabels(Build.sorted(labels));
        return pod;
    }

    private static int number(String value, String what) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw refused(what + " " + UserText.quote(value) + " is not a number");
        }
    }

    private static IllegalArgumentException refused(String why) {
        return new IllegalArgumentException("LeaderWorkerSet's pod webhook refuses it: " + why);
    }

    /** {@code SHA-1} of {@code text}; generated when {@code from} (the name hashed) is. */
    private static String key(String text, String from, Context ctx, String meaning) {
        String hash = Names.sha1(text);
        return ctx.generated(from) ? ctx.compose(ctx.token(hash, HEX40, meaning)) : hash;
    }
}
