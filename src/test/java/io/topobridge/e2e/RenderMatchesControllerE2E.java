package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.testing.PackagedApp;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code render} is the controller, offline. A seeded mix of workloads goes to the real cluster — gangs of every
 * size, one larger than the whole cluster, one asking for a resource no node offers, one asking for nothing, one past
 * its queue's capability, one past its namespace's ResourceQuota, bad annotations, a group, an LWS, a StormService
 * (whose RoleSets AIBrix makes) and a workload in a namespace that did not opt in. Once the bridge is quiet, every
 * object of those namespaces (and the Nodes and Queues) is exported as YAML and given to the packaged {@code render}:
 * it must print exactly the PodGroups the controller made and say exactly what the controller said about them. The
 * export holds every object the workload controllers made (ReplicaSets, StatefulSets, RoleSets, Pods), so render's
 * expansion (on by default) must make none of them again.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RenderMatchesControllerE2E {

    private static final String NS = "render-e2e";
    private static final String OUTSIDE = "render-outside-e2e";

    @RegisterExtension
    static final TestNamespace NAMESPACE =
            TestNamespace.forClass(NS).withAnnotation("topobridge.io/allowed-queues", "*");

    @RegisterExtension
    static final TestNamespace NOT_OPTED_IN = TestNamespace.forClass(OUTSIDE).notOptedIn();

    private static final String SMALL_QUEUE = "render-small";
    private static final long SEED = Long.getLong("topobridge.e2e.renderSeed", 20261203L);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> RUNTIME_ANNOTATIONS =
            Set.of("topobridge.io/achieved-tier", "topobridge.io/achieved-subgroup-tiers");

    private final RealCluster cluster;
    private KubernetesClient client;

    RenderMatchesControllerE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void namespacesAndQueues() {
        client = cluster.onExamples();
        client.resourceQuotas()
                .inNamespace(NS)
                .resource(new ResourceQuotaBuilder()
                        .withNewMetadata()
                        .withName("gpus")
                        .endMetadata()
                        .withNewSpec()
                        .addToHard("requests.nvidia.com/gpu", new Quantity("40"))
                        .endSpec()
                        .build())
                .create();
        create(null, """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: %s}
                spec: {weight: 1, reclaimable: true, capability: {nvidia.com/gpu: "2"}}
                """.formatted(SMALL_QUEUE));
    }

    @AfterAll
    void cleanUp() {
        client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue")
                .withName(SMALL_QUEUE)
                .delete();
    }

    private void create(String namespace, String yaml) {
        for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                .items()) {
            if (namespace == null) {
                client.resource(object).create();
            } else {
                client.resource(object).inNamespace(namespace).create();
            }
        }
    }

    private static String deployment(String name, int replicas, String resources, String annotations) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                  annotations: {%s}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers: [{name: c, image: x%s}]
                """.formatted(
                name, annotations, replicas, name, name, resources.isEmpty() ? "" : ", resources: " + resources);
    }

    private static String gpus(int n) {
        return "{requests: {cpu: 100m, nvidia.com/gpu: \"" + n + "\"}, limits: {nvidia.com/gpu: \"" + n + "\"}}";
    }

    /** The seeded mix: random gangs that fit together, and the cases render once judged differently. */
    private List<String> mix() {
        Random random = new Random(SEED);
        List<String> out = new ArrayList<>();
        String[] tiers = {"nvlink", "leaf", "spine", "2", "3"};
        int gpuTotal = 0;
        for (int i = 0; i < 6; i++) {
            int replicas = 1 + random.nextInt(2);
            int gpus = random.nextInt(3);
            gpuTotal += replicas * gpus;
            String annotations = "topobridge.io/highest-tier: " + tiers[random.nextInt(tiers.length)];
            if (random.nextInt(4) == 0) {
                annotations += ", topobridge.io/min-member: \"" + (replicas + 1 + random.nextInt(3)) + "\"";
            }
            out.add(deployment("d" + i, replicas, gpus == 0 ? "{requests: {cpu: 100m}}" : gpus(gpus), annotations));
        }
        assertThat(gpuTotal)
                .as("the random gangs fit in the namespace's quota in any order")
                .isLessThan(24);
        out.add(deployment("bad-tier", 1, gpus(1), "topobridge.io/highest-tier: bogus"));
        // more GPUs than every node has together, in one pod: nothing runs, and render knows the cluster is too small
        out.add(deployment("too-big", 1, gpus(100_000), "topobridge.io/highest-tier: spine"));
        out.add(deployment(
                "ascend",
                1,
                "{requests: {cpu: 100m, huawei.com/Ascend910: \"1\"}, limits: {huawei.com/Ascend910: \"1\"}}",
                "topobridge.io/highest-tier: leaf"));
        out.add(deployment("no-requests", 2, "", "topobridge.io/highest-tier: nvlink"));
        out.add(deployment(
                "small-queue", 1, gpus(4), "topobridge.io/highest-tier: leaf, topobridge.io/queue: " + SMALL_QUEUE));
        // alone more than the namespace's quota of 40 GPUs, whatever came first
        out.add(deployment("quota-buster", 1, gpus(48), "topobridge.io/highest-tier: spine"));
        out.add(deployment("prefill", 1, gpus(1), "topobridge.io/group: pd, topobridge.io/highest-tier: leaf"));
        out.add(deployment("decode", 2, gpus(1), "topobridge.io/group: pd"));
        out.add("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: engine
                  annotations: {topobridge.io/highest-tier: nvlink}
                spec:
                  replicas: 2
                  leaderWorkerTemplate:
                    size: 2
                    workerTemplate:
                      spec: {containers: [{name: c, image: x, resources: %s}]}
                """.formatted(gpus(1)));
        out.add("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: StormService
                metadata:
                  name: storm
                  annotations: {topobridge.io/highest-tier: leaf, topobridge.io/subgroup-highest-tier: nvlink}
                spec:
                  replicas: 1
                  stateful: true
                  selector: {matchLabels: {app: storm}}
                  template:
                    metadata: {labels: {app: storm}}
                    spec:
                      roles:
                      - name: prefill
                        replicas: 1
                        stateful: true
                        template: {spec: {containers: [{name: c, image: x, resources: %s}]}}
                      - name: decode
                        replicas: 1
                        stateful: true
                        template: {spec: {containers: [{name: c, image: x, resources: %s}]}}
                """.formatted(gpus(1), gpus(1)));
        return out;
    }

    /** What to compare of a PodGroup: its spec, labels, annotations (but the runtime ones) and owners. */
    private static JsonNode comparable(JsonNode pg) {
        ObjectNode out = JSON.createObjectNode();
        out.put("name", pg.path("metadata").path("name").asText());
        out.set("labels", pg.path("metadata").path("labels"));
        ObjectNode annotations = JSON.createObjectNode();
        pg.path("metadata").path("annotations").fields().forEachRemaining(e -> {
            if (!RUNTIME_ANNOTATIONS.contains(e.getKey())) {
                annotations.set(e.getKey(), e.getValue());
            }
        });
        out.set("annotations", annotations);
        var owners = JSON.createArrayNode();
        pg.path("metadata")
                .path("ownerReferences")
                .forEach(o -> owners.add(JSON.createObjectNode()
                        .put("kind", o.path("kind").asText())
                        .put("name", o.path("name").asText())
                        .put("uid", o.path("uid").asText())
                        .put("controller", o.path("controller").asBoolean())));
        out.set("owners", owners);
        out.set("spec", pg.path("spec"));
        return out;
    }

    @Test
    void renderPrintsWhatTheControllerMadeAndSaysWhatItSaid() throws Exception {
        for (String yaml : mix()) {
            try {
                create(NS, yaml);
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                // the workload webhook denies what the translation refuses (a bad tier, a min-member above the
                // pods): such an object does not exist, for the controller as for render
                assertThat(e.getCode()).as(e.getMessage()).isEqualTo(422);
                System.out.printf("RenderMatchesControllerE2E: denied at admission: %s%n", e.getMessage());
            }
        }
        create(OUTSIDE, deployment("outside", 1, gpus(1), "topobridge.io/highest-tier: leaf"));
        cluster.waitFor(
                "AIBrix's RoleSet",
                WAIT,
                () -> !client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", "RoleSet")
                        .inNamespace(NS)
                        .list()
                        .getItems()
                        .isEmpty());
        cluster.waitFor("the PodGroups of the LWS, the group and the RoleSet", WAIT, () -> {
            Set<String> names = new TreeSet<>();
            client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                    .inNamespace(NS)
                    .list()
                    .getItems()
                    .forEach(pg -> names.add(pg.getMetadata().getName()));
            return names.containsAll(List.of("tb-lws-engine-0", "tb-lws-engine-1", "tb-group-pd"))
                    && names.stream().anyMatch(n -> n.startsWith("tb-rs-"));
        });
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), WAIT);
        cluster.waitFor("every pod the workload controllers make", WAIT, this::allPodsMade);

        Path dir = cluster.runDir().resolve("render-matches-controller");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("cluster.yaml"), export());
        PackagedApp.Run run = PackagedApp.run("render", dir.toString());
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);

        Map<String, JsonNode> rendered = new TreeMap<>();
        Set<String> printedKinds = new TreeSet<>();
        Set<String> printedPods = new TreeSet<>();
        try (var parser = YAML.getFactory().createParser(run.stdout())) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(doc -> {
                if (doc != null) {
                    printedKinds.add(doc.path("kind").asText());
                }
                if (doc != null && "Pod".equals(doc.path("kind").asText())) {
                    printedPods.add(doc.path("metadata").path("namespace").asText() + "/"
                            + doc.path("metadata").path("name").asText());
                }
                if (doc != null
                        && "PodGroup".equals(doc.path("kind").asText())
                        && doc.path("metadata").path("labels").has("app.kubernetes.io/managed-by")) {
                    rendered.put(
                            doc.path("metadata").path("namespace").asText() + "/"
                                    + doc.path("metadata").path("name").asText(),
                            comparable(doc));
                }
            });
        }
        Map<String, JsonNode> made = new TreeMap<>();
        for (String ns : List.of(NS, OUTSIDE)) {
            for (GenericKubernetesResource pg : PodGroups.ours(client, ns)) {
                made.put(ns + "/" + pg.getMetadata().getName(), comparable(JSON.valueToTree(pg)));
            }
        }
        assertThat(rendered)
                .as("the PodGroups render prints and those the controller made")
                .isEqualTo(made);
        Set<String> clusterPods = new TreeSet<>();
        for (String ns : List.of(NS, OUTSIDE)) {
            client.pods()
                    .inNamespace(ns)
                    .list()
                    .getItems()
                    .forEach(p -> clusterPods.add(ns + "/" + p.getMetadata().getName()));
        }
        assertThat(clusterPods).as("the controllers made pods").isNotEmpty();
        assertThat(printedPods)
                .as("render's pods are the cluster's: the expansion made none again")
                .isEqualTo(clusterPods);
        assertThat(printedKinds)
                .as("nothing expanded: every ReplicaSet, StatefulSet and RoleSet was given")
                .isSubsetOf("HyperNode", "PodGroup", "Pod");
        assertThat(run.stderr()).doesNotContain("GeneratedNames").doesNotContain("ExpansionCapped");

        Set<String> said = new TreeSet<>();
        for (JsonNode f : JSON.readTree(
                cluster.bridge().get("/api/findings?source=workloads").body())) {
            String ns = f.path("namespace").asText();
            if (ns.equals(NS) || ns.equals(OUTSIDE)) {
                said.add(f.path("severity").asText() + " " + f.path("kind").asText() + "/" + ns + "/"
                        + f.path("name").asText() + " " + f.path("reason").asText() + ": "
                        + f.path("message").asText());
            }
        }
        Set<String> renderSaid = new TreeSet<>();
        run.stderr()
                .lines()
                .filter(l -> l.contains("/" + NS + "/") || l.contains("/" + OUTSIDE + "/"))
                .filter(l -> !l.startsWith("NOTE "))
                // what admission says of the given pods is not among the workload findings compared here
                .filter(l -> !l.matches("\\S+ Pod/.*"))
                .forEach(renderSaid::add);
        assertThat(renderSaid)
                .as("what render says and what the controller said")
                .isEqualTo(said);
        assertThat(said)
                .as("the cases render once judged otherwise")
                .anyMatch(l -> l.contains("Deployment/" + NS + "/too-big GangExceedsCluster"))
                .anyMatch(l -> l.contains("Deployment/" + NS + "/ascend GangExceedsCluster"))
                .anyMatch(l -> l.contains("Deployment/" + NS + "/quota-buster NamespaceReservationExceeded"))
                .anyMatch(l -> l.contains("Deployment/" + NS + "/small-queue GangExceedsQueue"))
                .anyMatch(l -> l.contains("Deployment/" + NS + "/no-requests BestEffortIgnoresTopology"))
                .anyMatch(l -> l.contains("Deployment/" + OUTSIDE + "/outside NamespaceNotOptedIn"));
        System.out.printf(
                "RenderMatchesControllerE2E (seed %d): %d PodGroups and %d findings equal%n",
                SEED, made.size(), said.size());
    }

    /**
     * Whether the workload controllers are done: each ReplicaSet and StatefulSet has its {@code spec.replicas} pods and
     * the RoleSet its 2 (a prefill and a decode pod), so the export holds everything they make.
     */
    private boolean allPodsMade() {
        int expected = 2;
        for (String ns : List.of(NS, OUTSIDE)) {
            for (var rs : client.apps().replicaSets().inNamespace(ns).list().getItems()) {
                expected +=
                        rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
            }
            for (var sts : client.apps().statefulSets().inNamespace(ns).list().getItems()) {
                expected +=
                        sts.getSpec().getReplicas() == null ? 1 : sts.getSpec().getReplicas();
            }
        }
        int pods = client.pods().inNamespace(NS).list().getItems().size()
                + client.pods().inNamespace(OUTSIDE).list().getItems().size();
        return pods == expected;
    }

    /** Every object of the test namespaces, the Nodes and the Queues, as one multi-document YAML. */
    private String export() {
        List<HasMetadata> objects = new ArrayList<>();
        objects.addAll(client.nodes().list().getItems());
        objects.addAll(generic("scheduling.volcano.sh/v1beta1", "Queue", null));
        for (String ns : List.of(NS, OUTSIDE)) {
            objects.add(client.namespaces().withName(ns).get());
            objects.addAll(client.resourceQuotas().inNamespace(ns).list().getItems());
            for (WorkloadKind kind : WorkloadKind.values()) {
                try {
                    if (kind.custom()) {
                        objects.addAll(generic(kind.apiVersion(), kind.kind(), ns));
                    } else {
                        objects.addAll(client.resources(kind.type())
                                .inNamespace(ns)
                                .list()
                                .getItems());
                    }
                } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                    // a kind whose CRD is not installed has no objects
                }
            }
            objects.addAll(generic("scheduling.volcano.sh/v1beta1", "PodGroup", ns));
            objects.addAll(client.pods().inNamespace(ns).list().getItems());
        }
        StringBuilder out = new StringBuilder();
        for (HasMetadata object : objects) {
            out.append("---\n").append(client.getKubernetesSerialization().asYaml(object));
        }
        return out.toString();
    }

    /** The objects of a custom kind (in a namespace, or cluster-scoped), each given its apiVersion and kind. */
    private List<GenericKubernetesResource> generic(String apiVersion, String kind, String namespace) {
        var resources = client.genericKubernetesResources(apiVersion, kind);
        List<GenericKubernetesResource> items = namespace == null
                ? resources.list().getItems()
                : resources.inNamespace(namespace).list().getItems();
        items.forEach(item -> {
            item.setApiVersion(apiVersion);
            item.setKind(kind);
        });
        return items;
    }
}
