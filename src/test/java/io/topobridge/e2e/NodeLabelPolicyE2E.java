package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.topobridge.testing.HelmChart;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart's optional node label policy on the real API server: the API server compiles the ValidatingAdmissionPolicy's
 * CEL on creation (and refuses the same policy with one unknown function); a node (a user {@code system:node:<name>}
 * of group {@code system:nodes}, impersonated) may not set, change or remove its own topology labels, while it may
 * change any other label, and an administrator may change the topology labels; with {@code refuseOnCreate} a node
 * cannot register with a topology label. Everything is removed afterwards.
 */
@ExtendWith(RealClusterExtension.class)
class NodeLabelPolicyE2E {

    private static final String NODE = "gb200-r05-t18";
    private static final String RELEASE = "tb-label-policy";
    private static final String ACCESS = "e2e-node-self-label";
    private static final String CLIQUE = "nvidia.com/gpu.clique";
    private static final String NEW_NODE = "e2e-label-policy-new";

    private final RealCluster cluster;
    private KubernetesClient admin;
    private KubernetesClient node;
    private List<GenericKubernetesResource> created = List.of();

    NodeLabelPolicyE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    /** Renders the chart's policy and binding with {@code values} and creates them. */
    private void install(Map<String, Object> values) {
        Map<String, Object> all = new java.util.HashMap<>(values);
        all.put("nodeLabelPolicy.enabled", true);
        HelmChart.Rendered chart = HelmChart.render(RELEASE, RealCluster.BRIDGE_NAMESPACE, all);
        created = chart.objects().stream()
                .filter(d -> d.path("kind").asText().startsWith("ValidatingAdmissionPolicy"))
                .map(d -> admin.getKubernetesSerialization().convertValue(d, GenericKubernetesResource.class))
                .map(r -> admin.resource(r).create())
                .toList();
        assertThat(created)
                .extracting(r -> r.getKind())
                .containsExactlyInAnyOrder("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding");
    }

    /**
     * The policy takes effect moments after its creation: probe with a key it protects (by its prefix) that no tier
     * reads, so nothing moves in the tree while it is not in force yet.
     */
    private void inForce() {
        cluster.waitFor("the policy in force", Duration.ofSeconds(60), () -> {
            try {
                label(node, "fabric.topograph.run/tier-99", "probe");
                label(admin, "fabric.topograph.run/tier-99", null);
                return false;
            } catch (KubernetesClientException e) {
                return e.getCode() == 403;
            }
        });
    }

    @BeforeEach
    void aNode() {
        admin = cluster.client();
        Examples.ensureNodes(admin);
        // the node's own access to its Node object, as the Node authorizer would give it
        admin.rbac()
                .clusterRoles()
                .resource(new ClusterRoleBuilder()
                        .withNewMetadata()
                        .withName(ACCESS)
                        .endMetadata()
                        .addNewRule()
                        .withApiGroups("")
                        .withResources("nodes")
                        .withResourceNames(NODE)
                        .withVerbs("get", "patch", "update")
                        .endRule()
                        .addNewRule()
                        .withApiGroups("")
                        .withResources("nodes")
                        .withVerbs("create")
                        .endRule()
                        .build())
                .create();
        admin.rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName(ACCESS)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", ACCESS)
                        .addNewSubject()
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withKind("User")
                        .withName("system:node:" + NODE)
                        .endSubject()
                        .addNewSubject()
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withKind("User")
                        .withName("system:node:" + NEW_NODE)
                        .endSubject()
                        .build())
                .create();
        node = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(admin.getConfiguration())
                        .withImpersonateUsername("system:node:" + NODE)
                        .withImpersonateGroups("system:nodes", "system:authenticated")
                        .build())
                .build();
    }

    @AfterEach
    void removeAll() {
        if (node != null) {
            node.close();
        }
        created.forEach(r -> admin.resource(r).delete());
        admin.rbac().clusterRoleBindings().withName(ACCESS).delete();
        admin.rbac().clusterRoles().withName(ACCESS).delete();
        admin.nodes().withName(NEW_NODE).delete();
        admin.nodes().withName(NODE).edit(n -> {
            n.getMetadata().getLabels().remove("example.com/rack-note");
            n.getMetadata().getLabels().remove("fabric.topograph.run/tier-99");
            return n;
        });
    }

    private static void label(KubernetesClient as, String key, String value) {
        String patch = value == null
                ? "{\"metadata\":{\"labels\":{\"" + key + "\":null}}}"
                : "{\"metadata\":{\"labels\":{\"" + key + "\":\"" + value + "\"}}}";
        as.nodes().withName(NODE).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    /**
     * The API server compiles a policy's expressions when it is created: the chart's policy is accepted, and the same
     * policy with one function CEL does not know is refused. (Type-checking against the Node schema is the work of
     * kube-controller-manager's policy status controller, which this cluster does not run; the tests below evaluate
     * every expression on real requests.)
     */
    @Test
    void theApiServerCompilesThePolicyAndRefusesABrokenOne() {
        install(Map.of());
        JsonNode policy = HelmChart.render(
                        RELEASE, RealCluster.BRIDGE_NAMESPACE, Map.of("nodeLabelPolicy.enabled", true))
                .one("ValidatingAdmissionPolicy");
        GenericKubernetesResource broken =
                admin.getKubernetesSerialization().convertValue(policy, GenericKubernetesResource.class);
        broken.getMetadata().setName(RELEASE + "-broken");
        String json = admin.getKubernetesSerialization().asJson(broken).replace(".join(", ".joinEach(");
        GenericKubernetesResource withUnknownFunction =
                admin.getKubernetesSerialization().unmarshal(json, GenericKubernetesResource.class);
        assertThatThrownBy(() -> admin.resource(withUnknownFunction).create())
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e -> {
                    System.out.println("NODE-LABEL-POLICY broken policy refused: " + e.getMessage());
                    assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422);
                })
                .hasMessageContaining("messageExpression")
                .hasMessageContaining("joinEach");
    }

    @Test
    void withRefuseOnCreateANodeCannotRegisterWithTopologyLabels() {
        install(Map.of("nodeLabelPolicy.refuseOnCreate", true));
        inForce();
        try (KubernetesClient newNode = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(admin.getConfiguration())
                        .withImpersonateUsername("system:node:" + NEW_NODE)
                        .withImpersonateGroups("system:nodes", "system:authenticated")
                        .build())
                .build()) {
            var labelled = new io.fabric8.kubernetes.api.model.NodeBuilder()
                    .withNewMetadata()
                    .withName(NEW_NODE)
                    .addToLabels(CLIQUE, "forged.1")
                    .addToLabels("kubernetes.io/hostname", NEW_NODE)
                    .endMetadata()
                    .build();
            // the probe of inForce() is an update: a policy of the same name removed a moment ago (UPDATE only) may
            // still answer it, so the CREATE rule is waited for on its own; a node the old policy let in is removed
            cluster.waitFor("the policy in force on CREATE", Duration.ofSeconds(60), () -> {
                try {
                    newNode.nodes().resource(labelled).create();
                } catch (KubernetesClientException e) {
                    return e.getCode() == 403;
                }
                admin.nodes().withName(NEW_NODE).withGracePeriod(0).delete();
                cluster.waitFor(
                        "the probe node gone",
                        Duration.ofSeconds(30),
                        () -> admin.nodes().withName(NEW_NODE).get() == null);
                return false;
            });
            assertThatThrownBy(() -> newNode.nodes().resource(labelled).create())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("node " + NEW_NODE
                            + " may not set, change or remove its own topology labels (" + CLIQUE + ")");
            labelled.getMetadata().getLabels().remove(CLIQUE);
            newNode.nodes().resource(labelled).create();
            assertThat(admin.nodes().withName(NEW_NODE).get()).isNotNull();
        }
    }

    @Test
    void aNodeMayNotChangeItsOwnTopologyLabelsButAnyOther() {
        install(Map.of());
        String clique =
                admin.nodes().withName(NODE).get().getMetadata().getLabels().get(CLIQUE);
        assertThat(clique).isNotBlank();
        inForce();
        assertThatThrownBy(() -> label(node, CLIQUE, "forged.1"))
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e ->
                        assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403))
                .hasMessageContaining(
                        "node " + NODE + " may not set, change or remove its own topology labels (" + CLIQUE + ")");
        assertThatThrownBy(() -> label(node, CLIQUE, null)).as("removing it").hasMessageContaining("(" + CLIQUE + ")");
        assertThatThrownBy(() -> label(node, "fabric.topograph.run/tier-0", "S-forged"))
                .as("a fabric tier, by its prefix")
                .hasMessageContaining("(fabric.topograph.run/tier-0)");
        assertThatThrownBy(() -> label(node, "volcano.sh/hypernode", "tor-forged"))
                .as("a key of another scheme")
                .hasMessageContaining("(volcano.sh/hypernode)");

        label(node, "example.com/rack-note", "fine");
        assertThat(admin.nodes().withName(NODE).get().getMetadata().getLabels())
                .containsEntry("example.com/rack-note", "fine")
                .containsEntry(CLIQUE, clique);

        // an administrator (no node identity) may: tier-99 is beyond what the tiers read, so the tree stays as it is
        label(admin, "fabric.topograph.run/tier-99", "by-hand");
        assertThat(admin.nodes().withName(NODE).get().getMetadata().getLabels())
                .containsEntry("fabric.topograph.run/tier-99", "by-hand");
    }
}
