package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A tenant on the real cluster: a ServiceAccount (its token from the TokenRequest API) that may manage Deployments in
 * its namespace and nothing else. The namespace's admin allows two queues and names a third as its default. Through
 * the bridge the tenant reaches only those: a Deployment naming another queue is denied at admission and gets no
 * PodGroup, an allowed queue and the namespace's default work, and a gang larger than its queue's capability or than
 * the whole cluster gets no PodGroup. When the admin narrows the allow-list, the reconciler refuses the Deployment too
 * and keeps its PodGroup as it was.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TenancyE2E {

    private static final String NS = "tenancy-e2e";
    private static final String ALLOWED = "tenancy-allowed";
    private static final String NS_DEFAULT = "tenancy-ns-default";
    private static final String SMALL = "tenancy-small";
    private static final String OTHER = "tenancy-other";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration QUIET = Duration.ofSeconds(3);

    private final RealCluster cluster;
    private KubernetesClient admin;
    private KubernetesClient tenant;
    private TestNamespace namespace;

    TenancyE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void tenantAndQueues() {
        admin = cluster.client();
        Examples.ensureNodes(admin);
        cluster.bridge();
        queue(ALLOWED, Map.of());
        queue(NS_DEFAULT, Map.of());
        queue(SMALL, Map.of("nvidia.com/gpu", "2"));
        queue(OTHER, Map.of());
        for (String queue : List.of(ALLOWED, NS_DEFAULT, SMALL, OTHER)) {
            cluster.waitFor("queue " + queue + " open", WAIT, () -> "Open".equals(state(queue)));
        }
        namespace = TestNamespace.forCase(NS)
                .withAnnotation("topobridge.io/allowed-queues", ALLOWED + "," + SMALL)
                .withAnnotation("scheduling.volcano.sh/queue-name", NS_DEFAULT)
                .open(cluster);
        admin.serviceAccounts()
                .inNamespace(NS)
                .resource(new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withName("tenant")
                        .endMetadata()
                        .build())
                .create();
        admin.rbac()
                .roles()
                .inNamespace(NS)
                .resource(new RoleBuilder()
                        .withNewMetadata()
                        .withName("tenant")
                        .endMetadata()
                        .withRules(new PolicyRuleBuilder()
                                .withApiGroups("apps")
                                .withResources("deployments")
                                .withVerbs("get", "list", "watch", "create", "update", "patch", "delete")
                                .build())
                        .build())
                .create();
        admin.rbac()
                .roleBindings()
                .inNamespace(NS)
                .resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName("tenant")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "Role", "tenant")
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName("tenant")
                        .withNamespace(NS)
                        .endSubject()
                        .build())
                .create();
        String token = RealCluster.token(admin, NS, "tenant");
        tenant = cluster.clientWithToken(token);
    }

    @AfterAll
    void cleanUp() {
        if (tenant != null) {
            tenant.close();
        }
        if (namespace != null) {
            namespace.close();
        }
        for (String queue : List.of(ALLOWED, NS_DEFAULT, SMALL, OTHER)) {
            admin.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue")
                    .withName(queue)
                    .delete();
        }
    }

    private void queue(String name, Map<String, String> capability) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("weight", 1);
        spec.put("reclaimable", true);
        if (!capability.isEmpty()) {
            spec.put("capability", capability);
        }
        admin.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue")
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("scheduling.volcano.sh/v1beta1")
                        .withKind("Queue")
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .addToAdditionalProperties("spec", spec)
                        .build())
                .createOr(q -> q.update());
    }

    private String state(String queue) {
        GenericKubernetesResource q = admin.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue")
                .withName(queue)
                .get();
        return q == null
                ? null
                : String.valueOf(
                        ((Map<?, ?>) q.getAdditionalProperties().getOrDefault("status", Map.of())).get("state"));
    }

    private GenericKubernetesResource podGroup(String name) {
        return PodGroups.get(admin, NS, name);
    }

    private static String queueOf(GenericKubernetesResource podGroup) {
        return String.valueOf(((Map<?, ?>) podGroup.getAdditionalProperties().get("spec")).get("queue"));
    }

    /** A Deployment of {@code replicas} pods of one GPU each; {@code queue} null names none. */
    private static Deployment deployment(String name, int replicas, String queue, String gpus) {
        Map<String, String> annotations = new java.util.TreeMap<>(Map.of("topobridge.io/mode", "soft"));
        if (queue != null) {
            annotations.put("topobridge.io/queue", queue);
        }
        return DeploymentWrapper.make(name, NS)
                .replicas(replicas)
                .annotations(annotations)
                .cpu("100m")
                .request("nvidia.com/gpu", gpus)
                .obj();
    }

    /** The reasons of the Events the bridge recorded on a Deployment. */
    private List<String> eventReasons(String deployment) {
        return admin.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> e.getInvolvedObject() != null
                        && deployment.equals(e.getInvolvedObject().getName())
                        && "Deployment".equals(e.getInvolvedObject().getKind()))
                .map(e -> e.getReason() + ": " + e.getMessage())
                .toList();
    }

    @Test
    void theTenantsOwnRbacForbidsWhatItWouldAskTheBridgeFor() {
        assertThatThrownBy(() -> tenant.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                        .inNamespace(NS)
                        .resource(new GenericKubernetesResourceBuilder()
                                .withApiVersion("scheduling.volcano.sh/v1beta1")
                                .withKind("PodGroup")
                                .withNewMetadata()
                                .withName("direct")
                                .withNamespace(NS)
                                .endMetadata()
                                .addToAdditionalProperties("spec", Map.of("minMember", 1, "queue", OTHER))
                                .build())
                        .create())
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(403));
        assertThatThrownBy(() -> tenant.namespaces()
                        .withName(NS)
                        .edit(n -> new NamespaceBuilder(n)
                                .editMetadata()
                                .addToAnnotations("topobridge.io/allowed-queues", "*")
                                .endMetadata()
                                .build()))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(403));
        assertThat(tenant.apps().deployments().inNamespace(NS).list().getItems())
                .as("it may list its Deployments")
                .isNotNull();
    }

    @Test
    void aQueueTheNamespaceDoesNotAllowIsDeniedAtAdmissionAndGetsNoPodGroup() {
        long mark = cluster.audit().mark();
        assertThatThrownBy(() -> tenant.apps()
                        .deployments()
                        .inNamespace(NS)
                        .resource(deployment("greedy", 1, OTHER, "1"))
                        .create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getMessage())
                            .contains("workloads.topobridge.io")
                            .contains("Deployment/" + NS + "/greedy: topobridge.io/queue=\"" + OTHER
                                    + "\" (metadata): queue \""
                                    + OTHER + "\" is not allowed here: namespace " + NS + " allows"
                                    + " topobridge.io/allowed-queues=\"" + ALLOWED + "," + SMALL + "\"");
                });
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, WAIT);
        assertThat(tenant.apps()
                        .deployments()
                        .inNamespace(NS)
                        .withName("greedy")
                        .get())
                .isNull();
        assertThat(podGroup("tb-deploy-greedy")).isNull();
        assertThat(cluster.audit()
                        .writesSince(
                                mark,
                                w -> "podgroups".equals(w.resource())
                                        && NS.equals(w.namespace())
                                        && "tb-deploy-greedy".equals(w.name())))
                .isEmpty();
    }

    @Test
    void anAllowedQueueAndTheNamespacesDefaultQueueWork() {
        tenant.apps()
                .deployments()
                .inNamespace(NS)
                .resource(deployment("allowed", 1, ALLOWED, "1"))
                .create();
        tenant.apps()
                .deployments()
                .inNamespace(NS)
                .resource(deployment("defaulted", 1, null, "1"))
                .create();
        cluster.waitFor(
                "both PodGroups",
                WAIT,
                () -> podGroup("tb-deploy-allowed") != null && podGroup("tb-deploy-defaulted") != null);
        assertThat(queueOf(podGroup("tb-deploy-allowed"))).isEqualTo(ALLOWED);
        assertThat(queueOf(podGroup("tb-deploy-defaulted")))
                .as("scheduling.volcano.sh/queue-name of the namespace")
                .isEqualTo(NS_DEFAULT);

        // once Volcano placed the gang the bridge records its achieved tier (one write of its own): let it land first
        cluster.waitFor("the achieved tier of tb-deploy-allowed", WAIT, () -> {
            GenericKubernetesResource pg = podGroup("tb-deploy-allowed");
            return pg.getMetadata().getAnnotations() != null
                    && pg.getMetadata().getAnnotations().containsKey("topobridge.io/achieved-tier");
        });
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, WAIT);

        // the admin narrows the allow-list: the reconciler refuses the Deployment too, and keeps its PodGroup as it was
        long mark = cluster.audit().mark();
        admin.namespaces()
                .withName(NS)
                .edit(n -> new NamespaceBuilder(n)
                        .editMetadata()
                        .addToAnnotations("topobridge.io/allowed-queues", SMALL)
                        .endMetadata()
                        .build());
        cluster.waitFor(
                "QueueNotAllowed on Deployment allowed",
                WAIT,
                () -> eventReasons("allowed").stream().anyMatch(r -> r.startsWith("QueueNotAllowed: ")));
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, WAIT);
        // (Volcano keeps writing its status: the bridge's own writes are what is counted)
        assertThat(cluster.audit()
                        .writesSince(
                                mark,
                                w -> w.user().equals(RealCluster.BRIDGE)
                                        && "podgroups".equals(w.resource())
                                        && "tb-deploy-allowed".equals(w.name())))
                .isEmpty();
        assertThat(podGroup("tb-deploy-allowed"))
                .isNotNull()
                .extracting(TenancyE2E::queueOf)
                .isEqualTo(ALLOWED);
        assertThat(eventReasons("defaulted"))
                .as("the namespace's default queue stays allowed")
                .noneMatch(r -> r.startsWith("QueueNotAllowed"));
        admin.namespaces()
                .withName(NS)
                .edit(n -> new NamespaceBuilder(n)
                        .editMetadata()
                        .addToAnnotations("topobridge.io/allowed-queues", ALLOWED + "," + SMALL)
                        .endMetadata()
                        .build());
    }

    @Test
    void aGangLargerThanItsQueueOrTheClusterGetsNoPodGroup() {
        long mark = cluster.audit().mark();
        // 2 pods of 2 GPUs in a queue whose capability is 2 GPUs
        tenant.apps()
                .deployments()
                .inNamespace(NS)
                .resource(deployment("too-big", 2, SMALL, "2"))
                .create();
        // more GPUs than every node together has
        tenant.apps()
                .deployments()
                .inNamespace(NS)
                .resource(deployment("huge", 1, ALLOWED, "100000"))
                .create();
        // and one that fits its queue, so the bridge is seen working meanwhile
        tenant.apps()
                .deployments()
                .inNamespace(NS)
                .resource(deployment("fits", 1, SMALL, "2"))
                .create();
        cluster.waitFor(
                "both refusals",
                WAIT,
                () -> eventReasons("too-big").stream().anyMatch(r -> r.startsWith("GangExceedsQueue: "))
                        && eventReasons("huge").stream().anyMatch(r -> r.startsWith("GangExceedsCluster: ")));
        cluster.waitFor("the PodGroup that fits", WAIT, () -> podGroup("tb-deploy-fits") != null);
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, WAIT);
        assertThat(podGroup("tb-deploy-too-big")).isNull();
        assertThat(podGroup("tb-deploy-huge")).isNull();
        assertThat(eventReasons("too-big")).anySatisfy(r -> assertThat(r).contains("nvidia.com/gpu 4 > 2"));
        assertThat(cluster.audit()
                        .writesSince(
                                mark,
                                w -> "podgroups".equals(w.resource())
                                        && NS.equals(w.namespace())
                                        && List.of("tb-deploy-too-big", "tb-deploy-huge")
                                                .contains(w.name())))
                .as("no write, not even refused")
                .isEmpty();
    }
}
