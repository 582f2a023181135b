package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.HelmChart;
import io.topobridge.testing.HelmChart.Rendered;
import io.topobridge.testing.PackagedApp;
import io.topobridge.testing.RbacRules;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.PodGroup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code cleanup} command of the packaged jar against the mock API server: it deletes exactly the objects that
 * carry the bridge's label (and the released leader Lease), keeps everything else, and stops the controller first.
 */
class CleanupCliIT {

    private static final String NS = "tb-system";
    private static final Map<String, String> OURS = Map.of("app.kubernetes.io/managed-by", "topobridge");
    private static final Map<String, String> HELMS = Map.of("app.kubernetes.io/managed-by", "Helm");
    private static final Map<String, String> SELECTOR =
            Map.of("app.kubernetes.io/name", "topobridge", "app.kubernetes.io/instance", "tb");

    private final MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds();
    private final KubernetesClient client = cluster.client();

    @AfterEach
    void close() {
        cluster.close();
    }

    private List<String> options() {
        return List.of(
                "-Dkubernetes.master=" + cluster.url(),
                "-Dkubernetes.namespace=" + NS,
                "-Dtopobridge.leader-election.lease-name=tb-leader",
                "-Dtopobridge.leader-election.lease-namespace=" + NS);
    }

    /** The controller's Deployment {@code tb-topobridge} in {@link #NS}, its pods labelled {@link #SELECTOR}. */
    private void createControllerDeployment(int replicas) {
        client.apps()
                .deployments()
                .resource(new DeploymentBuilder()
                        .withMetadata(meta(NS, "tb-topobridge", Map.of()))
                        .withNewSpec()
                        .withReplicas(replicas)
                        .withNewSelector()
                        .withMatchLabels(SELECTOR)
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .withLabels(SELECTOR)
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("controller")
                        .withImage("topobridge:test")
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
    }

    /** A pod labelled {@link #SELECTOR} in {@link #NS}, owned by the given controller, of one container. */
    private void createPod(
            String name,
            String ownerApiVersion,
            String ownerKind,
            String ownerName,
            String ownerUid,
            String container) {
        client.pods()
                .resource(new PodBuilder()
                        .withMetadata(meta(NS, name, SELECTOR))
                        .editMetadata()
                        .addNewOwnerReference()
                        .withApiVersion(ownerApiVersion)
                        .withKind(ownerKind)
                        .withName(ownerName)
                        .withUid(ownerUid)
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName(container)
                        .withImage("topobridge:test")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    /** What others made is kept: Volcano's webhook, the unrelated Secret and Lease, a handmade HyperNode, PodGroups. */
    private void assertOthersObjectsKept() {
        assertThat(names(client.admissionRegistration()
                        .v1()
                        .mutatingWebhookConfigurations()
                        .list()
                        .getItems()))
                .containsExactly("volcano-admission-service-pods-mutate");
        assertThat(names(client.secrets().inNamespace(NS).list().getItems())).containsExactly("unrelated");
        assertThat(names(client.leases().inNamespace(NS).list().getItems())).containsExactly("someone-elses-leader");
        assertThat(names(client.resources(HyperNode.class).list().getItems())).containsExactly("handmade-rack");
        assertThat(names(
                        client.resources(PodGroup.class).inAnyNamespace().list().getItems()))
                .containsExactly("pd-roleset-0", "podgroup-1234");
    }

    private static ObjectMeta meta(String name, Map<String, String> labels) {
        return new ObjectMetaBuilder().withName(name).withLabels(labels).build();
    }

    private static ObjectMeta meta(String namespace, String name, Map<String, String> labels) {
        return new ObjectMetaBuilder()
                .withNamespace(namespace)
                .withName(name)
                .withLabels(labels)
                .build();
    }

    private void namespace(String name) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
    }

    private void seed(String leaseHolder) {
        seed(leaseHolder, "topobridge", "topobridge-webhook-tls", "tb-leader");
    }

    /** What the controller made (labelled) next to look-alikes it did not make. */
    private void seed(String leaseHolder, String configuration, String secret, String lease) {
        namespace(NS);
        namespace("llm");
        namespace("aibrix");
        var registration = client.admissionRegistration().v1();
        registration
                .mutatingWebhookConfigurations()
                .resource(new MutatingWebhookConfigurationBuilder()
                        .withMetadata(meta(configuration, OURS))
                        .build())
                .create();
        registration
                .validatingWebhookConfigurations()
                .resource(new ValidatingWebhookConfigurationBuilder()
                        .withMetadata(meta(configuration, OURS))
                        .build())
                .create();
        registration
                .mutatingWebhookConfigurations()
                .resource(new MutatingWebhookConfigurationBuilder()
                        .withMetadata(meta("volcano-admission-service-pods-mutate", Map.of()))
                        .build())
                .create();
        client.secrets()
                .resource(new SecretBuilder()
                        .withMetadata(meta(NS, secret, OURS))
                        .addToStringData("tls.crt", "x")
                        .build())
                .create();
        client.secrets()
                .resource(new SecretBuilder()
                        .withMetadata(meta(NS, "unrelated", Map.of()))
                        .addToStringData("k", "v")
                        .build())
                .create();
        client.leases()
                .resource(new LeaseBuilder()
                        .withMetadata(meta(NS, lease, Map.of()))
                        .withNewSpec()
                        .withHolderIdentity(leaseHolder)
                        .withLeaseDurationSeconds(15)
                        .withRenewTime(ZonedDateTime.now())
                        .endSpec()
                        .build())
                .create();
        client.leases()
                .resource(new LeaseBuilder()
                        .withMetadata(meta(NS, "someone-elses-leader", Map.of()))
                        .withNewSpec()
                        .withHolderIdentity("")
                        .endSpec()
                        .build())
                .create();
        for (String name : List.of("tb-leaf-a", "tb-spine-0")) {
            client.resources(HyperNode.class).resource(hyperNode(name, OURS)).create();
        }
        client.resources(HyperNode.class)
                .resource(hyperNode("handmade-rack", Map.of()))
                .create();
        client.resources(PodGroup.class)
                .resource(podGroup("llm", "tb-deploy-prefill", OURS))
                .create();
        client.resources(PodGroup.class)
                .resource(podGroup("aibrix", "tb-rs-pd-0", OURS))
                .create();
        client.resources(PodGroup.class)
                .resource(podGroup("aibrix", "pd-roleset-0", Map.of()))
                .create();
        client.resources(PodGroup.class)
                .resource(podGroup("llm", "podgroup-1234", Map.of()))
                .create();
    }

    private static HyperNode hyperNode(String name, Map<String, String> labels) {
        HyperNode h = new HyperNode();
        h.setMetadata(meta(name, labels));
        return h;
    }

    private static PodGroup podGroup(String namespace, String name, Map<String, String> labels) {
        PodGroup p = new PodGroup();
        p.setMetadata(meta(namespace, name, labels));
        return p;
    }

    private static List<String> names(List<? extends HasMetadata> objects) {
        return objects.stream().map(o -> o.getMetadata().getName()).sorted().toList();
    }

    @Test
    void deletesOnlyWhatCarriesTheBridgesLabel() throws Exception {
        seed("");
        RecordingDispatcher.of(cluster).clearLog();

        var run = PackagedApp.run(options(), "cleanup", "--managed-objects=delete");

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        assertOthersObjectsKept();
        assertThat(client.admissionRegistration()
                        .v1()
                        .validatingWebhookConfigurations()
                        .list()
                        .getItems())
                .isEmpty();
        // 2 webhook configurations + Secret + Lease + 2 PodGroups + 2 HyperNodes, and nothing else written
        assertThat(RecordingDispatcher.of(cluster).requests(r -> r.isWrite()))
                .allMatch(r -> r.method().equals("DELETE"), "only deletes")
                .hasSize(8);
        assertThat(run.stdout())
                .contains(
                        "deleted MutatingWebhookConfiguration topobridge",
                        "deleted Secret tb-system/topobridge-webhook-tls",
                        "deleted Lease tb-system/tb-leader",
                        "deleted HyperNode tb-leaf-a",
                        "deleted PodGroup aibrix/tb-rs-pd-0",
                        "deleted 2 HyperNodes");
        assertThat(run.stderr()).isEmpty();
    }

    @Test
    void keepsHyperNodesAndPodGroupsWhenAskedAndObjectsItDidNotMake() throws Exception {
        seed("tb-topobridge-7d9f-abc");
        // a webhook configuration of the configured name that Helm made (cert-manager mode) is not the bridge's
        client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName("topobridge")
                .delete();
        Awaitility.await()
                .until(() -> client.admissionRegistration()
                                .v1()
                                .validatingWebhookConfigurations()
                                .withName("topobridge")
                                .get()
                        == null);
        client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .resource(new ValidatingWebhookConfigurationBuilder()
                        .withMetadata(meta("topobridge", HELMS))
                        .build())
                .create();

        var run = PackagedApp.run(options(), "cleanup", "--managed-objects=keep");

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        assertThat(client.admissionRegistration()
                        .v1()
                        .mutatingWebhookConfigurations()
                        .withName("topobridge")
                        .get())
                .isNull();
        assertThat(client.admissionRegistration()
                        .v1()
                        .validatingWebhookConfigurations()
                        .withName("topobridge")
                        .get())
                .isNotNull();
        // the lease is held and fresh: a controller still runs, so it is left to that controller
        assertThat(client.leases().inNamespace(NS).withName("tb-leader").get()).isNotNull();
        assertThat(client.resources(HyperNode.class).list().getItems()).hasSize(3);
        assertThat(client.resources(PodGroup.class).inAnyNamespace().list().getItems())
                .hasSize(4);
        assertThat(run.stdout())
                .contains(
                        "kept ValidatingWebhookConfiguration topobridge (not made by topobridge",
                        "kept Lease tb-system/tb-leader (held by tb-topobridge-7d9f-abc",
                        "kept the HyperNodes and PodGroups the bridge made");
    }

    @Test
    void stopsTheControllerBeforeDeletingAnything() throws Exception {
        seed("");
        createControllerDeployment(2);
        // a controller pod (owned by the Deployment's ReplicaSet) and the cleanup Job's own pod, with the same labels
        createPod("tb-topobridge-7d9f-abc", "apps/v1", "ReplicaSet", "tb-topobridge-7d9f", "u1", "controller");
        createPod("tb-topobridge-cleanup-x1", "batch/v1", "Job", "tb-topobridge-cleanup", "u2", "cleanup");

        List<String> command = new ArrayList<>();
        command.add(PackagedApp.java());
        command.addAll(options());
        command.addAll(List.of(
                "-jar",
                PackagedApp.jar().toString(),
                "cleanup",
                "--managed-objects=delete",
                "--stop-deployment",
                "tb-topobridge",
                "--wait",
                "60"));
        Path out = Files.createTempFile("cleanup", ".out");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> client.apps()
                                    .deployments()
                                    .inNamespace(NS)
                                    .withName("tb-topobridge")
                                    .get()
                                    .getSpec()
                                    .getReplicas()
                            == 0);
            Thread.sleep(1500);
            // while the controller pod runs, nothing is deleted
            assertThat(process.isAlive()).as(Files.readString(out)).isTrue();
            assertThat(client.admissionRegistration()
                            .v1()
                            .mutatingWebhookConfigurations()
                            .withName("topobridge")
                            .get())
                    .isNotNull();
            assertThat(client.resources(HyperNode.class).list().getItems()).hasSize(3);

            client.pods().inNamespace(NS).withName("tb-topobridge-7d9f-abc").delete();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as(Files.readString(out)).isZero();
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(out);
        }
        var deployment = client.apps()
                .deployments()
                .inNamespace(NS)
                .withName("tb-topobridge")
                .get();
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers()).hasSize(1);
        assertThat(client.admissionRegistration()
                        .v1()
                        .mutatingWebhookConfigurations()
                        .withName("topobridge")
                        .get())
                .isNull();
        assertThat(names(client.resources(HyperNode.class).list().getItems())).containsExactly("handmade-rack");
    }

    @Test
    void theChartsHookJobCleansUpWithinItsOwnRbac() throws Exception {
        Rendered chart = HelmChart.render("tb", NS, Map.of());
        Map<String, String> env = chart.controllerEnv();
        seed(
                "",
                env.get("TOPOBRIDGE_ADMISSION_CONFIGURATION_NAME"),
                env.get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME"),
                env.get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME"));
        Deployment deployment =
                client.getKubernetesSerialization().convertValue(chart.one("Deployment"), Deployment.class);
        client.resource(deployment).create();
        RecordingDispatcher.of(cluster).clearLog();

        // the Job's container as the chart defines it: its arguments and its environment
        JsonNode job = chart.one("Job");
        List<String> command = new ArrayList<>(List.of(
                PackagedApp.java(),
                "-Dkubernetes.master=" + cluster.url(),
                "-Dkubernetes.namespace=" + NS,
                "-jar",
                PackagedApp.jar().toString()));
        chart.container(job).path("args").forEach(a -> command.add(a.asText()));
        Path out = Files.createTempFile("cleanup", ".out");
        try {
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
            builder.environment().putAll(Rendered.env(chart.container(job)));
            builder.environment().put("POD_NAMESPACE", NS);
            Process process = builder.start();
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as(Files.readString(out)).isZero();
        } finally {
            Files.deleteIfExists(out);
        }
        List<RbacRules.Access> accesses = RecordingDispatcher.of(cluster).requests().stream()
                .filter(r -> r.path().startsWith("/api/v1/") || r.path().startsWith("/apis/"))
                .map(r -> RbacRules.access(r.method(), r.path()))
                .toList();

        assertThat(client.apps()
                        .deployments()
                        .inNamespace(NS)
                        .withName(deployment.getMetadata().getName())
                        .get()
                        .getSpec()
                        .getReplicas())
                .isZero();
        assertOthersObjectsKept();

        // everything it asked the API server was allowed by the hook's own Role and ClusterRole
        String account = job.path("spec")
                .path("template")
                .path("spec")
                .path("serviceAccountName")
                .asText();
        assertThat(accesses).extracting(RbacRules.Access::verb).contains("get", "list", "patch", "delete");
        assertThat(RbacRules.denied(accesses, chart.named("ClusterRole", account), chart.named("Role", account), NS))
                .isEmpty();
    }

    @Test
    void givesUpWaitingForAControllerThatDoesNotStopAndSaysSo() throws Exception {
        seed("");
        createControllerDeployment(1);
        createPod("tb-topobridge-7d9f-abc", "apps/v1", "ReplicaSet", "tb-topobridge-7d9f", "u1", "controller");

        var run = PackagedApp.run(
                options(), "cleanup", "--managed-objects=keep", "--stop-deployment", "tb-topobridge", "--wait", "1");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr())
                .contains(
                        "error: stop Deployment tb-system/tb-topobridge: its pods [tb-topobridge-7d9f-abc] still run");
        // the other steps still ran
        assertThat(client.admissionRegistration()
                        .v1()
                        .mutatingWebhookConfigurations()
                        .withName("topobridge")
                        .get())
                .isNull();
    }

    @Test
    void absentCrdsMeanNothingToDelete() throws Exception {
        try (MockCluster bare = RecordingDispatcher.start()) {
            var run = PackagedApp.run(
                    List.of("-Dkubernetes.master=" + bare.url(), "-Dkubernetes.namespace=" + NS),
                    "cleanup",
                    "--managed-objects=delete");
            assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
            assertThat(run.stdout())
                    .contains(
                            "absent MutatingWebhookConfiguration topobridge",
                            "no PodGroups: the PodGroup CRD is not installed",
                            "no HyperNodes: the HyperNode CRD is not installed");
        }
    }

    @Test
    void theChoiceAboutManagedObjectsIsRequired() throws Exception {
        var run = PackagedApp.run(options(), "cleanup");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("--managed-objects");
    }
}
