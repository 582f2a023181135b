package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.topobridge.testing.wrappers.StatefulSetWrapper;
import io.topobridge.volcano.PodGroup;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One tenant object must not take the bridge down for everyone. On the real cluster, a LeaderWorkerSet scaled to two
 * million groups through its scale subresource (which the workload webhook does not see; an admission policy keeps
 * the LWS controller from making StatefulSets for it, so only the bridge meets its size) and another in a namespace
 * that did not opt in: the bridge stays up, reports each object, and the neighbours' gangs get their PodGroups — also
 * after a restart, whose first full pass reads all of it.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileTenantE2E {

    private static final String HOSTILE = "hostile-e2e";
    private static final String OUTSIDE = "hostile-outside-e2e";
    private static final String NEIGHBOUR = "neighbour-e2e";

    @RegisterExtension
    static final TestNamespace HOSTILE_NAMESPACE = TestNamespace.forClass(HOSTILE);

    @RegisterExtension
    static final TestNamespace NEIGHBOUR_NAMESPACE = TestNamespace.forClass(NEIGHBOUR);

    @RegisterExtension
    static final TestNamespace OUTSIDE_NAMESPACE =
            TestNamespace.forClass(OUTSIDE).notOptedIn();

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RealCluster cluster;
    private KubernetesClient client;

    HostileTenantE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void namespaces() {
        client = cluster.onExamples();
        // the LWS controller may make no StatefulSet in the two namespaces: only the bridge meets the objects' size
        // (a StatefulSet of two million replicas once took kube-controller-manager to 17.5 GB)
        for (HasMetadata object : client.load(
                        new ByteArrayInputStream(NO_STATEFULSETS.getBytes(StandardCharsets.UTF_8)))
                .items()) {
            client.resource(object).create();
        }
        cluster.waitFor(
                "the policy refusing StatefulSets",
                WAIT,
                () -> List.of(HOSTILE, OUTSIDE).stream().allMatch(ns -> {
                    try {
                        StatefulSet probe =
                                StatefulSetWrapper.make("probe", ns).replicas(0).obj();
                        client.apps().statefulSets().resource(probe).dryRun().create();
                        return false;
                    } catch (KubernetesClientException e) {
                        return e.getMessage().contains(POLICY);
                    }
                }));
    }

    @AfterAll
    void policyGone() {
        // the LeaderWorkerSets go first: without the policy, the LWS controller would make their StatefulSets
        for (String ns : List.of(HOSTILE, OUTSIDE)) {
            client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                    .inNamespace(ns)
                    .delete();
        }
        cluster.waitFor(
                "the LeaderWorkerSets gone",
                WAIT,
                () -> List.of(HOSTILE, OUTSIDE).stream()
                        .allMatch(ns -> client.genericKubernetesResources(
                                        "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                                .inNamespace(ns)
                                .list()
                                .getItems()
                                .isEmpty()));
        client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicyBindings()
                .withName(POLICY)
                .delete();
        client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicies()
                .withName(POLICY)
                .delete();
    }

    private static final String POLICY = "hostile-e2e-no-statefulsets";

    /** A policy (no controller needed) refusing every StatefulSet in the hostile and the not-opted-in namespace. */
    private static final String NO_STATEFULSETS = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: %1$s}
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: ["*"], operations: [CREATE, UPDATE], resources: [statefulsets]}
              validations:
              - expression: "false"
                message: "%1$s: no StatefulSet in this namespace"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: %1$s}
            spec:
              policyName: %1$s
              validationActions: [Deny]
              matchResources:
                namespaceSelector:
                  matchExpressions:
                  - {key: kubernetes.io/metadata.name, operator: In, values: [%2$s, %3$s]}
            """.formatted(POLICY, HOSTILE, OUTSIDE);

    private static String gpuPod() {
        return """
                spec:
                  containers:
                  - name: c
                    image: x
                    resources: {requests: {cpu: 100m, nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}
                """;
    }

    private static String lws(String name, long replicas) {
        return """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: %s
                  annotations: {topobridge.io/highest-tier: nvlink}
                spec:
                  replicas: %d
                  leaderWorkerTemplate:
                    size: 2
                    workerTemplate:
                """.formatted(name, replicas) + gpuPod().indent(6);
    }

    private static String deployment(String name, String cpu) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                  annotations: {topobridge.io/highest-tier: nvlink}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers:
                      - name: c
                        image: x
                        resources: {requests: {cpu: "%s", nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}
                """.formatted(name, name, name, cpu);
    }

    private void create(String namespace, String yaml) {
        for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                .items()) {
            client.resource(object).inNamespace(namespace).create();
        }
    }

    private PodGroup podGroup(String namespace, String name) {
        return client.resources(PodGroup.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    private JsonNode findings() throws Exception {
        var response = cluster.bridge().get("/api/findings?source=workloads");
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private boolean finding(String kind, String namespace, String name, String reason) throws Exception {
        for (JsonNode f : findings()) {
            if (kind.equals(f.path("kind").asText())
                    && namespace.equals(f.path("namespace").asText())
                    && name.equals(f.path("name").asText())
                    && reason.equals(f.path("reason").asText())) {
                return true;
            }
        }
        return false;
    }

    @Test
    void oneObjectAskingForMillionsOfGangsCostsOnlyItself() throws Exception {
        Bridge bridge = cluster.bridge();
        // the workload webhook refuses it with the reconciler's message...
        assertThatThrownBy(() -> create(HOSTILE, lws("millions", 2_000_000)))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.replicas asks for 2000000 groups")
                .hasMessageContaining("topobridge.workloads.max-gangs-per-workload");
        // ...but its rules do not cover the scale subresource (nor a bridge that is down: failure policy Ignore)
        create(HOSTILE, lws("millions", 1));
        client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                .inNamespace(HOSTILE)
                .withName("millions")
                .subresource("scale")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":2000000}}");
        // a namespace that did not opt in is not validated at all
        create(OUTSIDE, lws("millions-outside", 2_000_000));
        long start = System.nanoTime();
        create(NEIGHBOUR, deployment("neighbour", "100m"));
        create(HOSTILE, lws("small", 2));
        cluster.waitFor(
                "the neighbours' PodGroups",
                WAIT,
                () -> podGroup(NEIGHBOUR, "tb-deploy-neighbour") != null
                        && podGroup(HOSTILE, "tb-lws-small-0") != null
                        && podGroup(HOSTILE, "tb-lws-small-1") != null);
        long converged = (System.nanoTime() - start) / 1_000_000;
        cluster.waitFor("the huge objects' findings", WAIT, () -> {
            try {
                return finding("LeaderWorkerSet", HOSTILE, "millions", "TooManyGangs")
                        && finding("LeaderWorkerSet", OUTSIDE, "millions-outside", "NamespaceNotOptedIn");
            } catch (Exception e) {
                return false;
            }
        });
        assertThat(bridge.process().alive()).as("the bridge is up").isTrue();
        assertThat(bridge.get("/q/health/ready").statusCode()).isEqualTo(200);
        assertThat(client.resources(PodGroup.class).inNamespace(HOSTILE).list().getItems())
                .as("no PodGroup for the two million groups (a refused edit keeps the one of its group before)")
                .extracting(pg -> pg.getMetadata().getName())
                .contains("tb-lws-small-0", "tb-lws-small-1")
                .allMatch(name -> name.startsWith("tb-lws-small-") || name.equals("tb-lws-millions-0"));
        assertThat(client.resources(PodGroup.class).inNamespace(OUTSIDE).list().getItems())
                .isEmpty();
        for (String ns : List.of(HOSTILE, OUTSIDE)) {
            assertThat(client.apps().statefulSets().inNamespace(ns).list().getItems())
                    .as("StatefulSets the LWS controller made in " + ns + " (the policy allows none)")
                    .isEmpty();
        }
        System.out.printf("HostileTenantE2E: neighbours' PodGroups %d ms after they were created%n", converged);

        // a restart's first full pass reads every object, the huge ones included: ready, and fast
        bridge.restart().awaitReady(Duration.ofSeconds(120));
        JsonNode status = JSON.readTree(bridge.get("/api/status").body());
        long firstPass = status.path("parts")
                .path("workloads")
                .path("lastFullPassMillis")
                .asLong(-1);
        System.out.printf("HostileTenantE2E: first full pass after a restart took %d ms%n", firstPass);
        assertThat(status.path("parts").path("workloads").path("fullPasses").asLong())
                .isPositive();
        create(NEIGHBOUR, deployment("after-restart", "100m"));
        cluster.waitFor(
                "a PodGroup made after the restart",
                WAIT,
                () -> podGroup(NEIGHBOUR, "tb-deploy-after-restart") != null);
        assertThat(bridge.process().alive()).isTrue();
    }
}
