package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.restassured.response.ValidatableResponse;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Reason;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The workload webhook over real HTTPS with a scripted validation (every {@code topobridge.io/mode} other than
 * hard or soft is rejected; {@code topobridge.io/queue=legacy} is a warning): what it denies, with which
 * message, and what it lets through.
 */
class WorkloadValidatorTest {

    enum Reasons implements Reason {
        INVALID_ANNOTATION,
        DEPRECATED_QUEUE
    }

    private static final ConcurrentLinkedQueue<HasMetadata> SEEN = new ConcurrentLinkedQueue<>();
    private static final TierCatalog TIERS =
            TierCatalog.of(List.of(new TierCatalog.Tier(1, "nvlink"), new TierCatalog.Tier(2, "rack")), List.of());
    private static volatile TierCatalog current = TIERS;
    private static WebhookFixture fixture;

    private static List<Finding> scripted(HasMetadata workload, TierCatalog tiers, WorkloadLookup lookup) {
        SEEN.add(workload);
        Map<String, String> annotations = workload.getMetadata().getAnnotations() == null
                ? Map.of()
                : workload.getMetadata().getAnnotations();
        List<Finding> out = new ArrayList<>();
        String mode = annotations.get("topobridge.io/mode");
        if (mode != null && !mode.equals("hard") && !mode.equals("soft")) {
            out.add(Finding.rejected(
                    Reasons.INVALID_ANNOTATION,
                    ObjectRef.of(workload),
                    "annotation topobridge.io/mode=" + mode + " is not hard or soft"));
        }
        String tier = annotations.get("topobridge.io/highest-tier");
        if (tier != null && tiers.isEmpty()) {
            out.add(Finding.rejected(
                    WorkloadReason.TIERS_UNKNOWN,
                    ObjectRef.of(workload),
                    "annotation topobridge.io/highest-tier=" + tier + ": no tiers are known yet"));
        }
        if ("legacy".equals(annotations.get("topobridge.io/queue"))) {
            out.add(Finding.warning(Reasons.DEPRECATED_QUEUE, ObjectRef.of(workload), "queue legacy is closed"));
        }
        return out;
    }

    @BeforeAll
    static void start() {
        fixture = new WebhookFixture(List.of(new WorkloadValidator(
                WorkloadValidatorTest::scripted,
                new AdmissionWebhook.Context(
                        () -> current,
                        new InMemoryLookup(List.of()),
                        Reviews.SERIALIZATION,
                        java.util.Set.of("kube-system")))));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @BeforeEach
    void clear() {
        SEEN.clear();
        current = TIERS;
    }

    private static ObjectNode deploymentReview(String operation, Object object, Object old) {
        return Reviews.deployment(operation, "ml", Reviews.toJson(object), old == null ? null : Reviews.toJson(old));
    }

    private static ValidatableResponse post(ObjectNode review) {
        return validate(fixture, review).body("response.uid", equalTo(Reviews.uid(review)));
    }

    /** Posts {@code review} to the workload validator {@code on} serves; the answer is a 200. */
    private static ValidatableResponse validate(WebhookFixture on, ObjectNode review) {
        return on.request()
                .body(review.toString())
                .post(WorkloadValidator.PATH)
                .then()
                .statusCode(200);
    }

    /** The validator over the real translation, with {@code objects} in the cluster. */
    private static WorkloadValidator realValidator(List<HasMetadata> objects) {
        return new WorkloadValidator(
                Fixtures.translator(Fixtures.defaultSettings())::validate,
                new AdmissionWebhook.Context(
                        () -> TIERS,
                        new InMemoryLookup(objects),
                        Reviews.SERIALIZATION,
                        java.util.Set.of("kube-system")));
    }

    @Test
    void anInvalidAnnotationIsDeniedWithTheReconcilersMessage() {
        post(deploymentReview("CREATE", Reviews.decodeDeployment("sideways"), null))
                .body("response.allowed", equalTo(false))
                .body("response.status.code", equalTo(422))
                .body("response.status.message", equalTo("annotation topobridge.io/mode=sideways is not hard or soft"));
        assertThat(SEEN).singleElement().isInstanceOf(Deployment.class);
    }

    @Test
    void aValidWorkloadIsAllowedWithItsWarnings() {
        Deployment valid = Reviews.decodeDeployment("soft");
        valid.getMetadata().getAnnotations().put("topobridge.io/queue", "legacy");
        post(deploymentReview("CREATE", valid, null))
                .body("response.allowed", equalTo(true))
                .body("response.warnings", hasItem("queue legacy is closed"));
    }

    /**
     * A bad {@code on-domain-loss} or {@code domain-loss-grace} (which the reconciler only warns about, the default
     * holding) is refused here, with the reconciler's message; a good one passes; an UPDATE of an object that already
     * had the bad value is not refused for it.
     */
    @Test
    void aBadDomainLossSettingIsDeniedWithTheReconcilersMessage() {
        try (var real = new WebhookFixture(List.of(realValidator(List.of())))) {
            Deployment bad = Reviews.decodeDeployment("soft");
            bad.getMetadata().getAnnotations().put("topobridge.io/queue", "default");
            bad.getMetadata().getAnnotations().put("topobridge.io/on-domain-loss", "reboot");
            validate(real, deploymentReview("CREATE", bad, null))
                    .body("response.allowed", equalTo(false))
                    .body("response.status.code", equalTo(422))
                    .body(
                            "response.status.message",
                            equalTo("Deployment/ml/decode: topobridge.io/on-domain-loss=\"reboot\" (metadata): must be"
                                    + " wait or restart; the gang waits (the default)"));
            Deployment badGrace = Reviews.decodeDeployment("soft");
            badGrace.getMetadata().getAnnotations().put("topobridge.io/queue", "default");
            badGrace.getMetadata().getAnnotations().put("topobridge.io/domain-loss-grace", "48h");
            validate(real, deploymentReview("CREATE", badGrace, null))
                    .body("response.allowed", equalTo(false))
                    .body("response.status.message", containsString("topobridge.io/domain-loss-grace=\"48h\""));
            // scaling an object that already carried the bad value is not refused for it
            Deployment scaled = Reviews.decodeDeployment("soft");
            scaled.getMetadata()
                    .setAnnotations(new java.util.HashMap<>(bad.getMetadata().getAnnotations()));
            scaled.getSpec().setReplicas(3);
            validate(real, deploymentReview("UPDATE", scaled, bad)).body("response.allowed", equalTo(true));
            Deployment good = Reviews.decodeDeployment("soft");
            good.getMetadata().getAnnotations().put("topobridge.io/queue", "default");
            good.getMetadata().getAnnotations().put("topobridge.io/on-domain-loss", "restart");
            good.getMetadata().getAnnotations().put("topobridge.io/domain-loss-grace", "30s");
            validate(real, deploymentReview("CREATE", good, null)).body("response.allowed", equalTo(true));
        }
    }

    /**
     * The gang on GB200 NVL72 racks: 20 replicas of 4 GPUs held to {@code nvlink}, whose domains hold 72 GPUs,
     * is denied with the reconciler's {@code GangExceedsDomain}; a scale from 18 replicas to 20 is denied too; soft, it
     * is let in with the warning.
     */
    @Test
    void aHardGangLargerThanEveryDomainOfItsTierIsDenied() {
        var validator = new WorkloadValidator(
                Fixtures.translator(Fixtures.defaultSettings())::validate,
                new AdmissionWebhook.Context(
                        () -> TIERS,
                        new InMemoryLookup(List.of(), io.topobridge.core.capacity.Cluster.nvl72()),
                        Reviews.SERIALIZATION,
                        java.util.Set.of("kube-system")));
        try (var real = new WebhookFixture(List.of(validator))) {
            Deployment tp = tp(20, "hard");
            validate(real, deploymentReview("CREATE", tp, null))
                    .body("response.allowed", equalTo(false))
                    .body("response.status.code", equalTo(422))
                    .body(
                            "response.status.message",
                            equalTo("Deployment/ml/tp: PodGroup tb-deploy-tp needs 80 GPUs within one domain of its"
                                    + " hard tier 1 (nvlink), more than any domain of that tier holds even empty: the"
                                    + " largest, nvl72-a, holds 72 GPUs; tier 2 (rack) would hold it; it could never"
                                    + " start, so it is not made (raise the tier, make it soft or the gang smaller)"));
            validate(real, deploymentReview("CREATE", tp(18, "hard"), null)).body("response.allowed", equalTo(true));
            validate(real, deploymentReview("UPDATE", tp, tp(18, "hard")))
                    .body("response.allowed", equalTo(false))
                    .body("response.status.message", containsString("GPUs within one domain of its hard tier 1"));
            validate(real, deploymentReview("CREATE", tp(20, "soft"), null))
                    .body("response.allowed", equalTo(true))
                    .body(
                            "response.warnings",
                            hasItem(containsString("within one domain of its soft tier 1 (nvlink), more than any")));
        }
    }

    private static Deployment tp(int replicas, String mode) {
        return io.topobridge.testing.wrappers.DeploymentWrapper.make("tp", "ml")
                .uid("uid-tp")
                .replicas(replicas)
                .annotation("topobridge.io/highest-tier", "nvlink")
                .annotation("topobridge.io/mode", mode)
                .annotation("topobridge.io/queue", "default")
                .cpu("8")
                .gpus(4)
                .obj();
    }

    /** The real translation, over a namespace whose admins allow queue team-a only. */
    @Test
    void aQueueTheNamespaceDoesNotAllowIsDeniedWithTheReconcilersMessage() {
        var namespace = new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName("ml")
                .addToAnnotations("topobridge.io/allowed-queues", "team-a")
                .endMetadata()
                .build();
        try (var real = new WebhookFixture(List.of(realValidator(List.of(namespace))))) {
            Deployment other = Reviews.decodeDeployment("soft");
            other.getMetadata().getAnnotations().put("topobridge.io/queue", "team-b");
            validate(real, deploymentReview("CREATE", other, null))
                    .body("response.allowed", equalTo(false))
                    .body("response.status.code", equalTo(422))
                    .body(
                            "response.status.message",
                            equalTo("Deployment/ml/decode: topobridge.io/queue=\"team-b\""
                                    + " (metadata): queue \"team-b\" is not allowed here: namespace ml allows"
                                    + " topobridge.io/allowed-queues=\"team-a\""));

            Deployment allowed = Reviews.decodeDeployment("soft");
            allowed.getMetadata().getAnnotations().put("topobridge.io/queue", "team-a");
            validate(real, deploymentReview("CREATE", allowed, null)).body("response.allowed", equalTo(true));

            // naming none takes the default queue, which this namespace does not allow either
            validate(real, deploymentReview("CREATE", Reviews.decodeDeployment("soft"), null))
                    .body("response.allowed", equalTo(false))
                    .body(
                            "response.status.message",
                            containsString("names no queue, and the default queue \"default\""));
        }
    }

    @Test
    void anUpdateIsDeniedOnlyForNewRejections() {
        // invalid before and after (e.g. created before the bridge was installed): a scale still goes through
        Deployment scaled = Reviews.decodeDeployment("sideways");
        scaled.getSpec().setReplicas(5);
        post(deploymentReview("UPDATE", scaled, Reviews.decodeDeployment("sideways")))
                .body("response.allowed", equalTo(true));
        // a valid object made invalid: denied
        post(deploymentReview("UPDATE", Reviews.decodeDeployment("upwards"), Reviews.decodeDeployment("hard")))
                .body("response.allowed", equalTo(false))
                .body("response.status.message", containsString("topobridge.io/mode=upwards"));
        // one invalid value replaced by another: the same refusal as before (same key), said as a warning
        post(deploymentReview("UPDATE", Reviews.decodeDeployment("upwards"), Reviews.decodeDeployment("sideways")))
                .body("response.allowed", equalTo(true))
                .body("response.warnings[0]", containsString(WorkloadValidator.STILL_REFUSED))
                .body("response.warnings[0]", containsString("topobridge.io/mode=upwards"));
    }

    /**
     * The refusal of a too-high min-member names the pod count: a scale changes its text, not the refusal, so the
     * reconciler's own validation (not a script) lets the scale through and says the refusal stands.
     */
    @Test
    void scalingAWorkloadThatWasRefusedBeforeIsAllowed() {
        var real = realValidator(List.of());
        Deployment before = Reviews.decodeDeployment("soft");
        before.getMetadata().getAnnotations().put("topobridge.io/min-member", "10");
        Deployment scaled = Reviews.decodeDeployment("soft");
        scaled.getMetadata().getAnnotations().put("topobridge.io/min-member", "10");
        scaled.getSpec().setReplicas(3);
        AdmissionAnswer created = real.review(request(deploymentReview("CREATE", before, null)));
        assertThat(created.allowed()).isFalse();
        assertThat(created.message()).contains("more than the 2 pods");
        AdmissionAnswer updated = real.review(request(deploymentReview("UPDATE", scaled, before)));
        assertThat(updated.allowed()).as(updated.message()).isTrue();
        assertThat(updated.warnings())
                .anySatisfy(w -> assertThat(w)
                        .startsWith(WorkloadValidator.STILL_REFUSED)
                        .contains("more than the 3 pods"));
        // made worse is still new: a valid object given a min-member above its pods is denied
        AdmissionAnswer worse =
                real.review(request(deploymentReview("UPDATE", before, Reviews.decodeDeployment("soft"))));
        assertThat(worse.allowed()).isFalse();
    }

    private static AdmissionRequest request(ObjectNode review) {
        return Reviews.parse(review.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void customKindsAreReadAsGenericResources() {
        ObjectNode lws = Reviews.JSON
                .createObjectNode()
                .put("apiVersion", "leaderworkerset.x-k8s.io/v1")
                .put("kind", "LeaderWorkerSet");
        lws.putObject("metadata").put("name", "lws").putObject("annotations").put("topobridge.io/mode", "x");
        lws.putObject("spec").put("replicas", 2);
        ObjectNode review = Reviews.review(
                "CREATE", "ml", "leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet", "leaderworkersets", lws, null);
        post(review).body("response.allowed", equalTo(false));
        assertThat(SEEN)
                .singleElement()
                .isInstanceOfSatisfying(
                        GenericKubernetesResource.class,
                        r -> assertThat(r.getMetadata().getNamespace())
                                .as("namespace from the request")
                                .isEqualTo("ml"));
    }

    @Test
    void whatItCannotFixOrDoesNotManagePasses() {
        Deployment owned = Reviews.decodeDeployment("sideways");
        owned.getMetadata()
                .setOwnerReferences(List.of(new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                        .withApiVersion("kserve.io/v1")
                        .withKind("InferenceService")
                        .withName("svc")
                        .withUid("u1")
                        .withController(true)
                        .build()));
        post(deploymentReview("CREATE", owned, null)).body("response.allowed", equalTo(true));
        Deployment deleting = Reviews.decodeDeployment("sideways");
        deleting.getMetadata().setDeletionTimestamp("2030-01-01T00:00:00Z");
        post(deploymentReview("UPDATE", deleting, Reviews.decodeDeployment("hard")))
                .body("response.allowed", equalTo(true));
        post(deploymentReview("DELETE", Reviews.decodeDeployment("sideways"), null))
                .body("response.allowed", equalTo(true));
        ObjectNode inKubeSystem =
                Reviews.deployment("CREATE", "kube-system", Reviews.toJson(Reviews.decodeDeployment("sideways")), null);
        post(inKubeSystem).body("response.allowed", equalTo(true));
        ObjectNode replicaSet = Reviews.review(
                "CREATE",
                "ml",
                "apps",
                "v1",
                "ReplicaSet",
                "replicasets",
                Reviews.JSON.createObjectNode().put("kind", "ReplicaSet"),
                null);
        post(replicaSet).body("response.allowed", equalTo(true)).body("response.status", nullValue());
        assertThat(SEEN).isEmpty();
    }

    @Test
    void whileNoTiersAreKnownAnUnresolvableTierIsOnlyAWarning() {
        current = TierCatalog.EMPTY;
        Deployment named = Reviews.decodeDeployment("hard");
        named.getMetadata().getAnnotations().put("topobridge.io/highest-tier", "rack");
        post(deploymentReview("CREATE", named, null))
                .body("response.allowed", equalTo(true))
                .body(
                        "response.warnings",
                        hasItem("not checked, no tiers are known yet: "
                                + "annotation topobridge.io/highest-tier=rack: no tiers are known yet"));
    }

    @Test
    void whileNoTiersAreKnownOtherMistakesAreStillDenied() {
        current = TierCatalog.EMPTY;
        post(deploymentReview("CREATE", Reviews.decodeDeployment("sideways"), null))
                .body("response.allowed", equalTo(false))
                .body("response.status.message", containsString("topobridge.io/mode=sideways is not hard or soft"));
    }

    @Test
    void aWorkloadReviewWithoutTheObjectIs400() {
        fixture.request()
                .body(deploymentReview("CREATE", null, null).toString())
                .post(WorkloadValidator.PATH)
                .then()
                .statusCode(400)
                .body("message", containsString("request.object is missing"));
    }
}
