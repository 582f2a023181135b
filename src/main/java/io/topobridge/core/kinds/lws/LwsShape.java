package io.topobridge.core.kinds.lws;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.kind.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of a LeaderWorkerSet spec (LWS v0.9.0) its controllers read, with the CRD's and the LWS webhook's
 * defaults, checked as the LWS webhook checks them: what it would refuse is an {@link IllegalArgumentException}.
 */
public record LwsShape(
        long replicas,
        long size,
        Build.Template leader,
        Build.Template worker,
        Long subGroupSize,
        String subGroupType,
        String subdomainPolicy,
        String rolloutType,
        long maxUnavailable,
        long maxSurge,
        long partition,
        JsonNode networkConfig,
        JsonNode leaderWorkerTemplate) {

    /** The keys LeaderWorkerSet v0.9.0 writes (api/leaderworkerset/v1) that WorkloadLabels does not hold. */
    static final String LWS_SUBGROUP_KEY = "leaderworkerset.sigs.k8s.io/subgroup-key";

    static final String LWS_SIZE = "leaderworkerset.sigs.k8s.io/size";
    static final String LWS_REPLICAS = "leaderworkerset.sigs.k8s.io/replicas";
    static final String LWS_LEADER_NAME = "leaderworkerset.sigs.k8s.io/leader-name";
    static final String LWS_EXCLUSIVE = "leaderworkerset.sigs.k8s.io/exclusive-topology";
    static final String LWS_SUBGROUP_EXCLUSIVE = "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";
    static final String LWS_SUBGROUP_SIZE = "leaderworkerset.sigs.k8s.io/subgroup-size";
    static final String LWS_SUBGROUP_POLICY_TYPE = "leaderworkerset.sigs.k8s.io/subgroup-policy-type";
    static final String LWS_SUBDOMAIN_POLICY = "leaderworkerset.sigs.k8s.io/subdomainPolicy";
    static final String LWS_LEADER_REQUESTS_TPUS = "leaderworkerset.sigs.k8s.io/leader-requests-tpus";
    static final String TPU_RESOURCE = "google.com/tpu";

    static final String UNIQUE_PER_REPLICA = "UniquePerReplica";
    static final String LEADER_EXCLUDED = "LeaderExcluded";

    /** The template leader pods are made from: the leader template, else the worker template. */
    Build.Template leaderOrWorker() {
        return leader != null ? leader : worker;
    }

    /**
     * A pod template's annotations with those LWS adds to the pods of every group: the size, and the exclusive-topology
     * and subgroup ones.
     */
    Map<String, String> podAnnotations(Build.Template template, Map<String, String> lwsAnnotations) {
        Map<String, String> out = new LinkedHashMap<>(template.annotations());
        out.put(LWS_SIZE, String.valueOf(size));
        if (subGroupSize != null) {
            out.put(LWS_SUBGROUP_SIZE, String.valueOf(subGroupSize));
        }
        for (String key :
                subGroupSize == null ? List.of(LWS_EXCLUSIVE) : List.of(LWS_EXCLUSIVE, LWS_SUBGROUP_EXCLUSIVE)) {
            String value = lwsAnnotations.get(key);
            if (value != null && !value.isEmpty()) {
                out.put(key, value);
            }
        }
        return out;
    }

    public static LwsShape of(io.fabric8.kubernetes.api.model.HasMetadata lws, Context ctx) {
        return ctx.view(lws).memo("lws", () -> read(ctx.view(lws).spec(), "spec", Build.annotations(lws)));
    }

    /**
     * What LWS makes for one LeaderWorkerSet: its leader StatefulSet, and per group the leader pod and, for groups of
     * more than one pod, the worker StatefulSet and its {@code size - 1} workers.
     */
    public long weight() {
        return Build.add(1, Build.times(replicas, Build.add(1, size > 1 ? size : 0)));
    }

    public static LwsShape read(JsonNode spec, String at, Map<String, String> annotations) {
        long replicas = Workload.integer(spec.get("replicas"), at + ".replicas", 1);
        JsonNode lwt = Workload.object(spec.get("leaderWorkerTemplate"), at + ".leaderWorkerTemplate");
        if (lwt.isMissingNode()) {
            throw new IllegalArgumentException(at + ".leaderWorkerTemplate is missing");
        }
        long size = Workload.integer(lwt.get("size"), at + ".leaderWorkerTemplate.size", 1);
        if (size < 1) {
            throw refused(at + ".leaderWorkerTemplate.size=" + size + " is less than 1");
        }
        if (replicas * size > Integer.MAX_VALUE) {
            throw refused("the product of " + at + ".replicas (" + replicas + ") and " + at
                    + ".leaderWorkerTemplate.size (" + size + ") exceeds " + Integer.MAX_VALUE);
        }
        JsonNode leaderNode = lwt.get("leaderTemplate");
        Build.Template leader = leaderNode == null || leaderNode.isNull()
                ? null
                : Build.Template.read(leaderNode, at + ".leaderWorkerTemplate.leaderTemplate");
        Build.Template worker =
                Build.Template.read(lwt.get("workerTemplate"), at + ".leaderWorkerTemplate.workerTemplate");

        JsonNode policy = Workload.object(lwt.get("subGroupPolicy"), at + ".leaderWorkerTemplate.subGroupPolicy");
        Long subGroupSize = null;
        String subGroupType = null;
        if (!policy.isMissingNode()) {
            String field = at + ".leaderWorkerTemplate.subGroupPolicy";
            if (policy.get("subGroupSize") == null || policy.get("subGroupSize").isNull()) {
                throw refused(field + ".subGroupSize is missing");
            }
            long k = Workload.integer(policy.get("subGroupSize"), field + ".subGroupSize", 0);
            subGroupType =
                    Workload.text(policy.get("subGroupPolicyType"), field + ".subGroupPolicyType", "LeaderWorker");
            checkSubGroupSize(k, size, subGroupType, field);
            subGroupSize = k;
        } else if (annotations.containsKey(LWS_SUBGROUP_EXCLUSIVE)) {
            throw refused("metadata.annotations." + LWS_SUBGROUP_EXCLUSIVE + " needs a subGroupSize");
        }

        JsonNode network = Workload.object(spec.get("networkConfig"), at + ".networkConfig");
        String subdomainPolicy =
                Workload.text(network.get("subdomainPolicy"), at + ".networkConfig.subdomainPolicy", "Shared");

        JsonNode rollout = Workload.object(spec.get("rolloutStrategy"), at + ".rolloutStrategy");
        String rolloutType = Workload.text(rollout.get("type"), at + ".rolloutStrategy.type", "RollingUpdate");
        String rField = at + ".rolloutStrategy.rollingUpdateConfiguration";
        JsonNode rolling = Workload.object(rollout.get("rollingUpdateConfiguration"), rField);
        long maxUnavailable =
                percentAtMost100(rolling.get("maxUnavailable"), rField + ".maxUnavailable", replicas, false, "1");
        long maxSurge = percentAtMost100(rolling.get("maxSurge"), rField + ".maxSurge", replicas, true, "0");
        if (maxUnavailable == 0 && maxSurge == 0 && replicas != 0) {
            throw refused(rField + ".maxUnavailable must not be 0 when maxSurge is 0");
        }
        long partition = Workload.integer(rolling.get("partition"), rField + ".partition", 0);
        return new LwsShape(
                replicas,
                size,
                leader,
                worker,
                subGroupSize,
                subGroupType,
                subdomainPolicy,
                rolloutType,
                maxUnavailable,
                maxSurge,
                partition,
                network,
                lwt);
    }

    /** The subgroup size checks of LWS's webhook. */
    private static void checkSubGroupSize(long k, long size, String subGroupType, String field) {
        if (k < 1) {
            throw refused(field + ".subGroupSize must be 1 or more");
        }
        if (size % k != 0 && (size - 1) % k != 0) {
            throw refused("size or size - 1 must be divisible by " + field + ".subGroupSize=" + k);
        }
        if (size < k) {
            throw refused(field + ".subGroupSize=" + k + " is larger than size " + size);
        }
        if (LEADER_EXCLUDED.equals(subGroupType) && (size - 1) % k != 0) {
            throw refused("size - 1 must be divisible by " + field + ".subGroupSize=" + k + " with LeaderExcluded");
        }
    }

    private static long percentAtMost100(JsonNode node, String field, long total, boolean roundUp, String absent) {
        if (node != null && node.isTextual() && node.asText().endsWith("%")) {
            String digits = node.asText().substring(0, node.asText().length() - 1);
            if (!digits.matches("[0-9]{1,4}") || Integer.parseInt(digits) > 100) {
                throw refused(field + "=" + UserText.quote(node.asText()) + " is not a percentage up to 100%");
            }
        }
        return Build.scaled(node, field, total, roundUp, absent);
    }

    private static IllegalArgumentException refused(String why) {
        return new IllegalArgumentException("LeaderWorkerSet's webhook refuses it: " + why);
    }
}
