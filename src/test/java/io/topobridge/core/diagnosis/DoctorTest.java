package io.topobridge.core.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topobridge.core.OptionalApi;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.node.Accelerators;
import io.topobridge.testing.VolcanoConfigs;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DoctorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PEM = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
    private static final String GOOD_CONF = """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins: [{name: priority}, {name: gang}]
            - plugins: [{name: predicates}, {name: network-topology-aware}]
            """;

    static JsonNode schema(String... specFields) {
        var spec = JSON.createObjectNode();
        for (String f : specFields) {
            spec.putObject(f).put("type", "object");
        }
        var root = JSON.createObjectNode();
        root.putObject("properties").putObject("spec").set("properties", spec);
        return root;
    }

    static DoctorInputs healthy() {
        return new DoctorInputs(
                Map.of(
                        "podgroups.scheduling.volcano.sh",
                        schema("minMember", "networkTopology", "subGroupPolicy"),
                        "hypernodes.topology.volcano.sh",
                        schema("tier", "tierName", "members")),
                new ObjectRef("v1", "ConfigMap", "volcano-system", "volcano-scheduler-configmap", null),
                "volcano-scheduler.conf",
                Map.of("volcano-scheduler.conf", GOOD_CONF),
                null,
                "volcano-controller.conf",
                List.of(),
                k -> k.startsWith("fabric.topograph.run/"),
                Map.of("default", "Open"),
                Map.of("default", List.of("Deployment/ns/a")),
                List.of(new HyperNodeView("leaf", 1, "leaf", "topobridge", List.of("gpu-1"), List.of())),
                List.of(
                        Cluster.nodeView("gpu-1", Map.of(), Cluster.amounts(4, 8, 8)),
                        Cluster.nodeView("cpu-1", Map.of(), Cluster.amounts(0, 8, 8))),
                new DoctorInputs.Webhooks(
                        true,
                        "topobridge",
                        PEM,
                        Map.of(
                                "MutatingWebhookConfiguration",
                                List.of(PEM),
                                "ValidatingWebhookConfiguration",
                                List.of(PEM)),
                        true,
                        null),
                Accelerators.DEFAULT,
                Map.of(),
                Set.of());
    }

    static DoctorInputs with(UnaryOperator<Builder> change) {
        return change.apply(new Builder(healthy())).build();
    }

    /** Copies of the healthy inputs with one thing changed. */
    static final class Builder {
        private final DoctorInputs base;
        private Map<String, JsonNode> crds;
        private Map<String, String> schedulerData;
        private List<DoctorInputs.ConfigMapData> controllerConfigs;
        private Map<String, String> queueStates;
        private Collection<HyperNodeView> hyperNodes;
        private Collection<NodeView> nodes;
        private DoctorInputs.Webhooks webhooks;
        private Map<String, GangDomain> gangDomains;
        private Set<OptionalApi> missingApis;

        Builder(DoctorInputs base) {
            this.base = base;
            crds = base.crdSchemas();
            schedulerData = base.schedulerData();
            controllerConfigs = base.controllerConfigs();
            queueStates = base.queueStates();
            hyperNodes = base.hyperNodes();
            nodes = base.nodes();
            webhooks = base.webhooks();
            gangDomains = base.gangDomains();
            missingApis = base.missingApis();
        }

        Builder crds(Map<String, JsonNode> crds) {
            this.crds = crds;
            return this;
        }

        Builder scheduler(Map<String, String> data) {
            schedulerData = data;
            return this;
        }

        Builder controller(String conf) {
            return controller("volcano-controller-configmap", conf);
        }

        Builder controller(String name, String conf) {
            controllerConfigs = List.of(new DoctorInputs.ConfigMapData(
                    new ObjectRef("v1", "ConfigMap", "volcano-system", name, null),
                    Map.of("volcano-controller.conf", conf)));
            return this;
        }

        Builder queues(Map<String, String> states) {
            queueStates = states;
            return this;
        }

        Builder hyperNodes(List<HyperNodeView> hyperNodes) {
            this.hyperNodes = hyperNodes;
            return this;
        }

        Builder nodes(List<NodeView> nodes) {
            this.nodes = nodes;
            return this;
        }

        Builder gangs(Map<String, GangDomain> gangDomains) {
            this.gangDomains = gangDomains;
            return this;
        }

        Builder missing(OptionalApi... apis) {
            missingApis = Set.of(apis);
            return this;
        }

        Builder webhooks(Map<String, List<String>> found) {
            webhooks = new DoctorInputs.Webhooks(true, "topobridge", PEM, found, true, null);
            return this;
        }

        Builder unreadableWebhooks(boolean ours) {
            webhooks = new DoctorInputs.Webhooks(true, "topobridge", null, Map.of(), ours, "HTTP 403 Forbidden");
            return this;
        }

        DoctorInputs build() {
            return new DoctorInputs(
                    crds,
                    base.schedulerConfigMap(),
                    base.schedulerConfigKey(),
                    schedulerData,
                    base.schedulerError(),
                    base.controllerConfigKey(),
                    controllerConfigs,
                    base.readsLabel(),
                    queueStates,
                    base.queuesNamedBy(),
                    hyperNodes,
                    nodes,
                    webhooks,
                    base.accelerators(),
                    gangDomains,
                    missingApis);
        }
    }

    @Test
    void aHealthyInstallationPassesEveryCheck() {
        List<DoctorCheck> checks = Doctor.run(healthy());
        assertThat(checks)
                .extracting(DoctorCheck::name)
                .containsExactly(
                        "volcano-crds",
                        "scheduler-config",
                        "scheduler-actions",
                        "label-discovery",
                        "queues",
                        "hypernode-forest",
                        "webhooks",
                        "gpu-nodes",
                        "node-room",
                        "kubernetes-apis");
        assertThat(checks)
                .as("each check reports under the name its catalog entry (and so the manual) gives it")
                .extracting(DoctorCheck::name)
                .containsExactlyElementsOf(
                        Doctor.CHECKS.stream().map(Doctor.Check::name).toList());
        assertThat(checks).allSatisfy(c -> assertThat(c.status()).as(c.line()).isEqualTo(DoctorCheck.Status.OK));
        assertThat(DoctorCheck.worst(checks).exitCode()).isZero();
    }

    static Stream<Arguments> problems() {
        return Stream.of(
                Arguments.of(
                        "Kubernetes 1.33: no resource.k8s.io/v1",
                        with(b -> b.missing(OptionalApi.DRA)),
                        "kubernetes-apis",
                        DoctorCheck.Status.WARNING,
                        "resource.k8s.io/v1 resourceclaims and resourceclaimtemplates not served (Kubernetes 1.34 and"
                                + " later serve them): ResourceClaims and ResourceClaimTemplates are not cached",
                        null),
                Arguments.of(
                        "Kubernetes 1.29: neither DRA nor ValidatingAdmissionPolicies",
                        with(b -> b.missing(OptionalApi.VALIDATING_ADMISSION_POLICY, OptionalApi.DRA)),
                        "kubernetes-apis",
                        DoctorCheck.Status.WARNING,
                        "DraDevicesNotCounted); admissionregistration.k8s.io/v1 validatingadmissionpolicies and"
                                + " validatingadmissionpolicybindings not served (Kubernetes 1.30 and later serve"
                                + " them): the chart's nodeLabelPolicy",
                        null),
                Arguments.of(
                        "PodGroup CRD of Volcano 1.11 (no network topology yet)",
                        with(b -> b.crds(Map.of(
                                "podgroups.scheduling.volcano.sh", schema("minMember"),
                                "hypernodes.topology.volcano.sh", schema("tier", "tierName")))),
                        "volcano-crds",
                        DoctorCheck.Status.FAILURE,
                        "lacks spec.networkTopology, spec.subGroupPolicy",
                        "VolcanoCrdTooOld"),
                // Volcano v1.12.x and v1.13.x as their CRDs are (docs/compatibility.md): a PodGroup networkTopology
                // (mode, highestTierAllowed) but no subGroupPolicy, a HyperNode without tierName
                Arguments.of(
                        "PodGroup and HyperNode CRDs of Volcano 1.12 and 1.13",
                        with(b -> b.crds(Map.of(
                                "podgroups.scheduling.volcano.sh",
                                schema("minMember", "minTaskMember", "networkTopology"),
                                "hypernodes.topology.volcano.sh",
                                schema("tier", "members")))),
                        "volcano-crds",
                        DoctorCheck.Status.FAILURE,
                        "podgroups.scheduling.volcano.sh lacks spec.subGroupPolicy;"
                                + " hypernodes.topology.volcano.sh lacks spec.tierName: Volcano v1.14 or later is needed",
                        "VolcanoCrdTooOld"),
                Arguments.of(
                        "HyperNode CRD missing",
                        with(b -> b.crds(Map.of(
                                "podgroups.scheduling.volcano.sh", schema("networkTopology", "subGroupPolicy")))),
                        "volcano-crds",
                        DoctorCheck.Status.FAILURE,
                        "v1.14 or later is needed",
                        "VolcanoCrdMissing"),
                // v1.14.1 registers enqueue, allocate, backfill, preempt, reclaim and shuffle only
                Arguments.of(
                        "an action Volcano v1.14 does not know",
                        with(b -> b.scheduler(Map.of(
                                "volcano-scheduler.conf",
                                GOOD_CONF.replace("allocate, backfill", "allocate, gangpreempt, backfill")))),
                        "scheduler-actions",
                        DoctorCheck.Status.WARNING,
                        "it also runs gangpreempt (gangpreempt: Volcano v1.15 or later; a v1.14 scheduler refuses the"
                                + " whole configuration",
                        "SchedulerActionMissing"),
                Arguments.of(
                        "Volcano's default plugins",
                        with(
                                b -> b.scheduler(
                                        Map.of(
                                                "volcano-scheduler.conf",
                                                "actions: enqueue, allocate, backfill\ntiers:\n- plugins: [{name: gang}, {name: predicates}]\n"))),
                        "scheduler-config",
                        DoctorCheck.Status.FAILURE,
                        "network-topology-aware plugin is not enabled",
                        "SchedulerPluginMissing"),
                Arguments.of(
                        "no gang plugin, gradient off",
                        with(
                                b -> b.scheduler(
                                        Map.of(
                                                "volcano-scheduler.conf",
                                                "actions: enqueue, allocate, backfill\ntiers:\n- plugins: [{name: network-topology-aware, enabledHyperNodeGradient: false}]\n"))),
                        "scheduler-config",
                        DoctorCheck.Status.FAILURE,
                        "enabledHyperNodeGradient: false, so gangs are not steered into HyperNodes; the gang plugin is not"
                                + " enabled",
                        "SchedulerPluginMissing"),
                Arguments.of(
                        "scheduler ConfigMap missing",
                        with(b -> b.scheduler(null)),
                        "scheduler-config",
                        DoctorCheck.Status.WARNING,
                        "does not exist",
                        "SchedulerConfigUnknown"),
                Arguments.of(
                        "label discovery on the same labels",
                        with(b -> b.controller("""
                        networkTopologyDiscovery:
                        - source: label
                          enabled: true
                          config:
                            networkTopologyTypes:
                              fabric:
                              - nodeLabel: fabric.topograph.run/tier-1
                              - nodeLabel: kubernetes.io/hostname
                        """)),
                        "label-discovery",
                        DoctorCheck.Status.FAILURE,
                        "makes HyperNodes from fabric.topograph.run/tier-1",
                        "LabelDiscoveryOverlap"),
                Arguments.of(
                        "label discovery of a Volcano release named vc (its HyperNode controller reads"
                                + " vc-controller-configmap)",
                        with(b -> b.controller(
                                "vc-controller-configmap",
                                VolcanoConfigs.labelDiscovery(
                                        "topology-A", "fabric.topograph.run/tier-2", "fabric.topograph.run/tier-1"))),
                        "label-discovery",
                        DoctorCheck.Status.FAILURE,
                        "Volcano's label discovery (ConfigMap volcano-system/vc-controller-configmap) makes HyperNodes"
                                + " from fabric.topograph.run/tier-1, fabric.topograph.run/tier-2",
                        "LabelDiscoveryOverlap"),
                Arguments.of(
                        "a named queue is closed",
                        with(b -> b.queues(Map.of("default", "Closed"))),
                        "queues",
                        DoctorCheck.Status.FAILURE,
                        "queue \"default\" is \"Closed\" (named by Deployment/ns/a)",
                        "QueueClosed"),
                Arguments.of(
                        "a named queue is missing",
                        with(b -> b.queues(Map.of("gold", "Open"))),
                        "queues",
                        DoctorCheck.Status.FAILURE,
                        "queue \"default\" does not exist",
                        "QueueNotFound"),
                Arguments.of(
                        "a node with two parents",
                        with(b -> b.hyperNodes(List.of(
                                new HyperNodeView("leaf", 1, "leaf", "topobridge", List.of("gpu-1"), List.of()),
                                new HyperNodeView("tor-x", 1, "", "label", List.of("gpu-1"), List.of())))),
                        "hypernode-forest",
                        DoctorCheck.Status.FAILURE,
                        "node gpu-1 is a member of 2 HyperNodes: leaf" + " (source topobridge), tor-x (source label)",
                        "HyperNodeForestBroken"),
                Arguments.of(
                        "a GPU node in no tree",
                        with(b -> b.hyperNodes(List.of())),
                        "gpu-nodes",
                        DoctorCheck.Status.WARNING,
                        "1 of 1 accelerator node(s) in no topology tree",
                        null),
                Arguments.of(
                        "a Gaudi node in no tree",
                        with(b -> b.nodes(List.of(
                                Cluster.nodeView("gpu-1", Map.of(), Cluster.amounts(4, 8, 8)),
                                Cluster.nodeView(
                                        "gaudi-1",
                                        Map.of(),
                                        io.topobridge.core.capacity.Amounts.parse(
                                                Map.of("habana.ai/gaudi", "8", "cpu", "96")))))),
                        "gpu-nodes",
                        DoctorCheck.Status.WARNING,
                        "1 of 2 accelerator node(s) in no topology tree, so hard-topology gangs can never use them:"
                                + " gaudi-1",
                        null),
                Arguments.of(
                        "a cordoned node is said, not a problem",
                        with(b -> b.nodes(List.of(
                                new NodeView(
                                        "gpu-1",
                                        Map.of(),
                                        Cluster.amounts(4, 8, 8),
                                        new io.topobridge.core.node.NodeState(true, "True", List.of())),
                                Cluster.nodeView("cpu-1", Map.of(), Cluster.amounts(0, 8, 8))))),
                        "node-room",
                        DoctorCheck.Status.OK,
                        "1 of 2 node(s) take no new pods, so their resources are no room for any gang: 1 cordoned"
                                + " (gpu-1)",
                        null),
                Arguments.of(
                        "a node not ready",
                        with(b -> b.nodes(List.of(
                                Cluster.nodeView("gpu-1", Map.of(), Cluster.amounts(4, 8, 8)),
                                new NodeView(
                                        "cpu-1",
                                        Map.of(),
                                        Cluster.amounts(0, 8, 8),
                                        new io.topobridge.core.node.NodeState(false, "Unknown", List.of()))))),
                        "node-room",
                        DoctorCheck.Status.WARNING,
                        "1 not ready (cpu-1 (Ready=Unknown))",
                        null),
                Arguments.of(
                        "a tainted accelerator node is room for the pods that tolerate it",
                        with(b -> b.nodes(List.of(new NodeView(
                                "gpu-1",
                                Map.of(),
                                Cluster.amounts(4, 8, 8),
                                new io.topobridge.core.node.NodeState(
                                        false,
                                        "True",
                                        List.of(new io.topobridge.core.node.Taint(
                                                "nvidia.com/gpu", "present", "NoSchedule"))))))),
                        "node-room",
                        DoctorCheck.Status.OK,
                        "1 node(s), every one takes new pods; 1 of 1 accelerator node(s) are tainted, room only for"
                                + " pods that tolerate it: nvidia.com/gpu=present:NoSchedule on 1 (gpu-1)",
                        null),
                Arguments.of(
                        "a running gang whose domain has a cordoned node is said, not a problem",
                        with(b -> b.gangs(Map.of(
                                "ns/web",
                                new GangDomain(
                                        GangDomain.Verdict.HOLDS,
                                        "leaf",
                                        1,
                                        "leaf",
                                        List.of(),
                                        List.of(),
                                        List.of("gpu-2 (cordoned)"),
                                        null,
                                        "runs within leaf")))),
                        "node-room",
                        DoctorCheck.Status.OK,
                        "2 node(s), every one takes new pods; 1 running gang(s) whose domain lost capacity: ns/web in"
                                + " leaf (no new pods on gpu-2 (cordoned))",
                        null),
                Arguments.of(
                        "a running gang whose domain is lost",
                        with(b -> b.gangs(Map.of(
                                "ns/web",
                                new GangDomain(
                                        GangDomain.Verdict.DOMAIN_LOST,
                                        "leaf",
                                        1,
                                        "leaf",
                                        List.of("web-4"),
                                        List.of(),
                                        List.of("gpu-2 (Ready=Unknown)"),
                                        java.time.Instant.parse("2026-12-03T08:00:30Z"),
                                        "leaf can no longer hold the gang")))),
                        "node-room",
                        DoctorCheck.Status.WARNING,
                        "1 running gang(s) whose domain lost capacity: ns/web in leaf (DomainLost; 1 pod(s) pending"
                                + " since 2026-12-03T08:00:30Z; no new pods on gpu-2 (Ready=Unknown))",
                        null),
                Arguments.of(
                        "a stale caBundle",
                        with(b -> b.webhooks(Map.of(
                                "MutatingWebhookConfiguration",
                                List.of("old"),
                                "ValidatingWebhookConfiguration",
                                List.of(PEM)))),
                        "webhooks",
                        DoctorCheck.Status.FAILURE,
                        "MutatingWebhookConfiguration topobridge does not carry the current CA",
                        "WebhookConfigurationStale"),
                Arguments.of(
                        "a missing webhook configuration",
                        with(b -> b.webhooks(Map.of("MutatingWebhookConfiguration", List.of(PEM)))),
                        "webhooks",
                        DoctorCheck.Status.FAILURE,
                        "ValidatingWebhookConfiguration topobridge does not exist",
                        "WebhookConfigurationStale"),
                Arguments.of(
                        "webhook configurations the installer keeps and the bridge may not read (OLM)",
                        with(b -> b.unreadableWebhooks(false)),
                        "webhooks",
                        DoctorCheck.Status.OK,
                        "webhook configuration topobridge cannot be read (HTTP 403 Forbidden); their installer keeps"
                                + " them, so they are not checked",
                        null),
                Arguments.of(
                        "webhook configurations the bridge writes but may not read",
                        with(b -> b.unreadableWebhooks(true)),
                        "webhooks",
                        DoctorCheck.Status.WARNING,
                        "webhook configuration topobridge cannot be read (HTTP 403 Forbidden), though the bridge"
                                + " writes them (manage-configurations=true)",
                        "WebhookConfigurationStale"));
    }

    /** Volcano v1.15.1's chart scheduler configuration (its tiers), with network-topology-aware as install.md adds. */
    private static String chartConf(String actions) {
        return (actions == null ? "" : "actions: \"" + actions + "\"\n")
                + VolcanoConfigs.CHART_TIERS
                + "  - name: network-topology-aware\n";
    }

    static Stream<Arguments> actions() {
        return Stream.of(
                Arguments.of(
                        "the chart's default actions",
                        chartConf("enqueue, allocate, backfill"),
                        DoctorCheck.Status.OK,
                        "ConfigMap volcano-system/volcano-scheduler-configmap runs enqueue, allocate, backfill as"
                                + " recommended for gangs"),
                Arguments.of(
                        "the chart's CI actions, with reclaim and preempt",
                        chartConf("enqueue, allocate, backfill, reclaim, preempt"),
                        DoctorCheck.Status.OK,
                        "as recommended for gangs; it also runs reclaim, preempt"),
                Arguments.of(
                        "written without spaces",
                        chartConf("enqueue,allocate,backfill"),
                        DoctorCheck.Status.OK,
                        "as recommended for gangs"),
                Arguments.of(
                        "no actions key",
                        chartConf(null),
                        DoctorCheck.Status.FAILURE,
                        "sets no actions (recommended: \"enqueue, allocate, backfill\"): Volcano refuses the whole"
                                + " configuration"),
                Arguments.of(
                        "a misspelt action",
                        chartConf("enqueue, allocate, backfil"),
                        DoctorCheck.Status.FAILURE,
                        "names unknown action(s) \"backfil\": Volcano refuses the whole configuration"),
                Arguments.of(
                        "a trailing comma",
                        chartConf("enqueue, allocate, backfill,"),
                        DoctorCheck.Status.FAILURE,
                        "names unknown action(s) an empty name"),
                Arguments.of(
                        "no enqueue",
                        chartConf("allocate, backfill, preempt"),
                        DoctorCheck.Status.WARNING,
                        "actions \"allocate, backfill, preempt\" miss what gangs need (recommended: \"enqueue,"
                                + " allocate, backfill\"): no enqueue: allocate admits every PodGroup at once, whether"
                                + " or not its queue has room for its minResources; it also runs preempt"),
                Arguments.of(
                        "enqueue after allocate",
                        chartConf("allocate, enqueue, backfill"),
                        DoctorCheck.Status.WARNING,
                        "enqueue runs after allocate"),
                Arguments.of(
                        "no allocate",
                        chartConf("enqueue, backfill"),
                        DoctorCheck.Status.FAILURE,
                        "no allocate: no pod is placed at all"),
                Arguments.of(
                        "no backfill",
                        chartConf("enqueue, allocate, reclaim"),
                        DoctorCheck.Status.WARNING,
                        "no backfill: pods that request no resources are never placed; it also runs reclaim"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("actions")
    void theSchedulersActionsAreWhatGangsNeed(String name, String conf, DoctorCheck.Status status, String message) {
        List<DoctorCheck> checks = Doctor.run(with(b -> b.scheduler(Map.of("volcano-scheduler.conf", conf))));
        DoctorCheck found = checks.stream()
                .filter(c -> c.name().equals("scheduler-actions"))
                .findFirst()
                .orElseThrow();
        assertThat(found.status()).as(found.line()).isEqualTo(status);
        assertThat(found.message()).contains(message);
        if (status == DoctorCheck.Status.OK) {
            assertThat(found.findings()).isEmpty();
        } else {
            assertThat(found.findings()).singleElement().satisfies(f -> {
                assertThat(f.reason().reason()).isEqualTo("SchedulerActionMissing");
                assertThat(f.object().name()).isEqualTo("volcano-scheduler-configmap");
            });
        }
        assertThat(checks)
                .filteredOn(c -> !c.name().equals("scheduler-actions"))
                .allSatisfy(c -> assertThat(c.status()).as(c.line()).isEqualTo(DoctorCheck.Status.OK));
    }

    @Test
    void aFloodOfUnknownActionsIsNamedBounded() {
        StringBuilder many = new StringBuilder("enqueue, allocate, backfill");
        for (int i = 0; i < 5_000; i++) {
            many.append(", x").append(i);
        }
        many.append(", ").append("y".repeat(100_000));
        DoctorCheck.Result found = SchedulerActionsCheck.check(
                with(b -> b.scheduler(Map.of("volcano-scheduler.conf", chartConf(many.toString())))));
        assertThat(found.status()).isEqualTo(DoctorCheck.Status.FAILURE);
        assertThat(found.message()).contains("and 4991 more").hasSizeLessThan(2_000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("problems")
    void eachProblemFailsItsCheckAndOnlyIt(
            String name, DoctorInputs in, String check, DoctorCheck.Status status, String message, String reason) {
        List<DoctorCheck> checks = Doctor.run(in);
        DoctorCheck found =
                checks.stream().filter(c -> c.name().equals(check)).findFirst().orElseThrow();
        assertThat(found.status()).as(found.line()).isEqualTo(status);
        assertThat(found.message()).contains(message);
        if (reason == null) {
            assertThat(found.findings())
                    .as("reported elsewhere (GpuNodeOutsideTopology node by node) or not a problem")
                    .isEmpty();
        } else {
            assertThat(found.findings())
                    .isNotEmpty()
                    .allSatisfy(f -> assertThat(f.reason().reason()).isEqualTo(reason));
        }
        assertThat(checks)
                .filteredOn(c -> !c.name().equals(check))
                .allSatisfy(c -> assertThat(c.status()).as(c.line()).isEqualTo(DoctorCheck.Status.OK));
        assertThat(DoctorCheck.worst(checks).exitCode()).isEqualTo(status.exitCode());
    }
}
