package io.topobridge.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topobridge.core.VolcanoApi;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The reviews a starting bridge sends to its own webhook server before registering it: one CREATE per served path, of
 * the kind that path reviews, in a namespace made up for the purpose. Each takes the path a real request takes
 * (parsing, the owner looked up in the caches and read live, the patch computed and serialized) and ends untouched: the
 * objects name no {@code topobridge.io/} key and their owner does not exist. They are marked dry-run.
 */
final class WarmUpReviews {

    /** The made-up namespace: a live read of the pod's owner there finds nothing. */
    static final String NAMESPACE = "topobridge-warm-up";

    private WarmUpReviews() {}

    /** A review body per path of {@code paths} that has one (the three webhooks the bridge serves). */
    static Map<String, byte[]> forPaths(ObjectMapper mapper, Set<String> paths) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        if (paths.contains(PodMutator.PATH)) {
            out.put(PodMutator.PATH, review(mapper, "", "v1", "Pod", "pods", pod(mapper)));
        }
        if (paths.contains(WorkloadValidator.PATH)) {
            out.put(
                    WorkloadValidator.PATH,
                    review(mapper, "apps", "v1", "Deployment", "deployments", deployment(mapper)));
        }
        if (paths.contains(PodGroupMutator.PATH)) {
            out.put(
                    PodGroupMutator.PATH,
                    review(
                            mapper,
                            VolcanoApi.SCHEDULING_GROUP,
                            VolcanoApi.SCHEDULING_VERSION,
                            "PodGroup",
                            "podgroups",
                            podGroup(mapper)));
        }
        return out;
    }

    private static byte[] review(
            ObjectMapper mapper, String group, String version, String kind, String resource, ObjectNode object) {
        ObjectNode review = mapper.createObjectNode()
                .put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", UUID.randomUUID().toString());
        request.putObject("kind").put("group", group).put("version", version).put("kind", kind);
        request.putObject("resource")
                .put("group", group)
                .put("version", version)
                .put("resource", resource);
        request.put("namespace", NAMESPACE);
        request.put("operation", "CREATE");
        request.put("dryRun", true);
        request.putObject("userInfo").put("username", "topobridge-warm-up");
        request.set("object", object);
        try {
            return mapper.writeValueAsBytes(review);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode pod(ObjectMapper mapper) {
        ObjectNode pod = mapper.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode metadata =
                pod.putObject("metadata").put("generateName", "warm-up-").put("namespace", NAMESPACE);
        metadata.putObject("labels").put("app", "warm-up");
        metadata.putArray("ownerReferences")
                .addObject()
                .put("apiVersion", "apps/v1")
                .put("kind", "ReplicaSet")
                .put("name", "warm-up-5d8f7c")
                .put("uid", UUID.randomUUID().toString())
                .put("controller", true);
        ObjectNode container =
                pod.putObject("spec").putArray("containers").addObject().put("name", "warm-up");
        container.put("image", "warm-up");
        ObjectNode resources = container.putObject("resources");
        resources.putObject("requests").put("cpu", "1").put("memory", "1Gi");
        resources.putObject("limits").put("nvidia.com/gpu", "1");
        return pod;
    }

    private static ObjectNode deployment(ObjectMapper mapper) {
        ObjectNode deployment =
                mapper.createObjectNode().put("apiVersion", "apps/v1").put("kind", "Deployment");
        deployment.putObject("metadata").put("name", "warm-up").put("namespace", NAMESPACE);
        ObjectNode spec = deployment.putObject("spec").put("replicas", 1);
        spec.putObject("selector").putObject("matchLabels").put("app", "warm-up");
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "warm-up");
        template.putObject("spec")
                .putArray("containers")
                .addObject()
                .put("name", "warm-up")
                .put("image", "warm-up");
        return deployment;
    }

    private static ObjectNode podGroup(ObjectMapper mapper) {
        ObjectNode podGroup = mapper.createObjectNode()
                .put("apiVersion", VolcanoApi.SCHEDULING_GROUP + "/" + VolcanoApi.SCHEDULING_VERSION)
                .put("kind", "PodGroup");
        podGroup.putObject("metadata").put("name", "warm-up").put("namespace", NAMESPACE);
        podGroup.putObject("spec").put("minMember", 1);
        return podGroup;
    }
}
