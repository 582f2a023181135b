package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.restassured.response.Response;
import io.topobridge.core.admission.Rfc6902;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/**
 * {@code admission.k8s.io/v1} AdmissionReview requests as the API server sends them (the shape of its
 * requests: uid, kind, resource, requestKind, operation, userInfo, object, oldObject, dryRun, options), and
 * helpers to read the answers: the patch applied to the object with a strict RFC 6902 implementation.
 */
public final class Reviews {

    public static final ObjectMapper JSON = new ObjectMapper();
    public static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private Reviews() {}

    /** A Pod CREATE review; the pod is sent as the API server sends it (namespace taken from the request). */
    public static ObjectNode podCreate(String namespace, Object pod) {
        return review("CREATE", namespace, "", "v1", "Pod", "pods", toJson(pod), null);
    }

    /** The Deployment ml/decode of two pods the workload reviews carry; {@code mode} its topobridge.io/mode (or none). */
    public static Deployment decodeDeployment(String mode) {
        var builder = new DeploymentBuilder()
                .withNewMetadata()
                .withName("decode")
                .withNamespace("ml")
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .endSpec();
        if (mode != null) {
            builder.editMetadata().addToAnnotations("topobridge.io/mode", mode).endMetadata();
        }
        return builder.build();
    }

    /** An apps/v1 Deployment review ({@code oldObject} null on CREATE). */
    public static ObjectNode deployment(String operation, String namespace, JsonNode object, JsonNode oldObject) {
        return review(operation, namespace, "apps", "v1", "Deployment", "deployments", object, oldObject);
    }

    public static ObjectNode review(
            String operation,
            String namespace,
            String group,
            String version,
            String kind,
            String resource,
            JsonNode object,
            JsonNode oldObject) {
        ObjectNode review =
                JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", UUID.randomUUID().toString());
        request.putObject("kind").put("group", group).put("version", version).put("kind", kind);
        request.putObject("resource")
                .put("group", group)
                .put("version", version)
                .put("resource", resource);
        request.putObject("requestKind")
                .put("group", group)
                .put("version", version)
                .put("kind", kind);
        request.putObject("requestResource")
                .put("group", group)
                .put("version", version)
                .put("resource", resource);
        if (object != null && object.path("metadata").hasNonNull("name")) {
            request.put("name", object.path("metadata").path("name").asText());
        }
        request.put("namespace", namespace);
        request.put("operation", operation);
        ObjectNode user = request.putObject("userInfo");
        user.put("username", "system:serviceaccount:kube-system:replicaset-controller");
        user.put("uid", UUID.randomUUID().toString());
        user.putArray("groups").add("system:serviceaccounts").add("system:authenticated");
        if (object != null) {
            request.set("object", object);
        } else {
            request.putNull("object");
        }
        if (oldObject != null) {
            request.set("oldObject", oldObject);
        } else {
            request.putNull("oldObject");
        }
        request.put("dryRun", false);
        request.putObject("options")
                .put("apiVersion", "meta.k8s.io/v1")
                .put("kind", "CREATE".equals(operation) ? "CreateOptions" : "UpdateOptions");
        return review;
    }

    /** Scans and parses a review body within the default limits, as the server does. */
    public static AdmissionRequest parse(byte[] body) {
        AdmissionRequest.scan(body, 0, body.length, WebhookServerBuilder.DEFAULT_LIMITS);
        return AdmissionRequest.parseScanned(JSON, body, 0, body.length);
    }

    public static JsonNode toJson(Object object) {
        return object instanceof JsonNode node ? node : SERIALIZATION.convertValue(object, JsonNode.class);
    }

    public static String uid(ObjectNode review) {
        return review.path("request").path("uid").asText();
    }

    /** The decoded JSON patch of an answer (an empty array when there is none). */
    public static JsonNode patch(Response response) {
        String encoded = response.path("response.patch");
        if (encoded == null) {
            return JSON.createArrayNode();
        }
        assertThat(response.<String>path("response.patchType")).isEqualTo("JSONPatch");
        try {
            return JSON.readTree(new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new AssertionError("the patch is not base64 JSON: " + encoded, e);
        }
    }

    /** The review's object with the answer's patch applied, as a Pod. */
    public static Pod admittedPod(ObjectNode review, Response response) {
        JsonNode object = review.path("request").path("object");
        return SERIALIZATION.convertValue(Rfc6902.apply(patch(response), object), Pod.class);
    }
}
