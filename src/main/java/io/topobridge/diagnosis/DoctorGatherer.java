package io.topobridge.diagnosis;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.cache.HyperNodeCache;
import io.topobridge.cache.ServedApis;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.diagnosis.DoctorInputs;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.topology.TopologyBuilder;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.Queue;
import io.topobridge.webhook.WebhookSettings;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Gathers what the doctor checks: a few GETs (CRDs, the two Volcano ConfigMaps, the webhook configurations, the
 * certificate Secret and the discovery of the optional Kubernetes APIs) and, from {@link Sources}, the nodes, HyperNodes, queues and the queues workloads name
 * (the running controller takes those from its caches, the {@code doctor} command lists them).
 */
public final class DoctorGatherer {

    /**
     * Volcano's controller ConfigMap (its HyperNode discovery configuration) of a release named {@code volcano}, in
     * the scheduler's namespace. Volcano's HyperNode controller reads {@code <release>-controller-configmap}.
     */
    public static final String CONTROLLER_CONFIG_NAME = "volcano-controller-configmap";

    static final String CONTROLLER_CONFIG_SUFFIX = "-controller-configmap";
    static final String SCHEDULER_CONFIG_SUFFIX = "-scheduler-configmap";

    public static final String CONTROLLER_CONFIG_KEY = "volcano-controller.conf";

    /**
     * Where the bulky inputs come from; {@code listConfigMaps}: whether to list the ConfigMaps of Volcano's namespace
     * for controller ConfigMaps of any release name (the {@code doctor} command, run with the user's rights; the
     * running controller may read only the ConfigMaps the chart names); {@code gangDomains}: the running gangs whose
     * domain lost capacity (from the running controller's caches; none for the {@code doctor} command).
     */
    public record Sources(
            Supplier<List<NodeView>> nodes,
            Supplier<List<HyperNodeView>> hyperNodes,
            Supplier<Map<String, String>> queueStates,
            Supplier<Map<String, List<String>>> queuesNamedBy,
            boolean listConfigMaps,
            Supplier<Map<String, GangDomain>> gangDomains) {}

    /** What the gatherer needs from configuration. */
    public record Settings(
            TopologySettings topology,
            String schedulerConfigNamespace,
            String schedulerConfigName,
            String schedulerConfigKey,
            String defaultQueue,
            WebhookSettings webhook,
            Accelerators accelerators) {}

    private final KubernetesClient client;
    private final Settings settings;
    private final TopologyBuilder builder;

    public DoctorGatherer(KubernetesClient client, Settings settings) {
        this.client = client;
        this.settings = settings;
        this.builder = new TopologyBuilder(settings.topology());
    }

    public DoctorInputs gather(Sources sources) {
        Map<String, JsonNode> schemas = new TreeMap<>();
        schema(VolcanoApi.PODGROUP_CRD, VolcanoApi.SCHEDULING_VERSION, schemas);
        schema(VolcanoApi.HYPERNODE_CRD, VolcanoApi.TOPOLOGY_VERSION, schemas);
        String ns = settings.schedulerConfigNamespace();
        Map<String, String> schedulerData = null;
        String schedulerError = null;
        try {
            ConfigMap cm = client.configMaps()
                    .inNamespace(ns)
                    .withName(settings.schedulerConfigName())
                    .get();
            schedulerData = cm == null ? null : cm.getData() == null ? Map.of() : cm.getData();
        } catch (KubernetesClientException e) {
            schedulerError = e.getMessage();
        }
        return new DoctorInputs(
                schemas,
                new ObjectRef("v1", "ConfigMap", ns, settings.schedulerConfigName(), null),
                settings.schedulerConfigKey(),
                schedulerData,
                schedulerError,
                CONTROLLER_CONFIG_KEY,
                controllerConfigs(ns, sources.listConfigMaps()),
                builder::readsLabel,
                sources.queueStates().get(),
                sources.queuesNamedBy().get(),
                sources.hyperNodes().get(),
                sources.nodes().get(),
                webhooks(),
                settings.accelerators(),
                sources.gangDomains().get(),
                ServedApis.missing(client));
    }

    /**
     * The names Volcano's HyperNode controller may read: {@code <release>-controller-configmap} of the release whose
     * scheduler ConfigMap is configured ({@code <release>-scheduler-configmap}), and that of a release named
     * {@code volcano}.
     */
    public static List<String> controllerConfigNames(String schedulerConfigName) {
        List<String> out = new ArrayList<>();
        if (schedulerConfigName != null
                && schedulerConfigName.endsWith(SCHEDULER_CONFIG_SUFFIX)
                && schedulerConfigName.length() > SCHEDULER_CONFIG_SUFFIX.length()) {
            out.add(schedulerConfigName.substring(0, schedulerConfigName.length() - SCHEDULER_CONFIG_SUFFIX.length())
                    + CONTROLLER_CONFIG_SUFFIX);
        }
        if (!out.contains(CONTROLLER_CONFIG_NAME)) {
            out.add(CONTROLLER_CONFIG_NAME);
        }
        return out;
    }

    /**
     * Volcano's controller ConfigMaps in its namespace: those of the known names, read one by one (what the chart
     * grants), and, when listing is asked for and allowed, any other {@code *-controller-configmap} holding the
     * controller configuration. One that is absent or may not be read is left out.
     */
    private List<DoctorInputs.ConfigMapData> controllerConfigs(String ns, boolean list) {
        Map<String, DoctorInputs.ConfigMapData> found = new TreeMap<>();
        for (String name : controllerConfigNames(settings.schedulerConfigName())) {
            try {
                ConfigMap cm =
                        client.configMaps().inNamespace(ns).withName(name).get();
                if (cm != null) {
                    found.put(name, data(ns, cm));
                }
            } catch (KubernetesClientException e) {
                // not granted or not reachable: judged from the others
            }
        }
        if (list) {
            try {
                for (ConfigMap cm : client.configMaps().inNamespace(ns).list().getItems()) {
                    String name = cm.getMetadata().getName();
                    if (name != null
                            && name.endsWith(CONTROLLER_CONFIG_SUFFIX)
                            && cm.getData() != null
                            && cm.getData().containsKey(CONTROLLER_CONFIG_KEY)) {
                        found.putIfAbsent(name, data(ns, cm));
                    }
                }
            } catch (KubernetesClientException e) {
                // listing not allowed: the known names were read
            }
        }
        return List.copyOf(found.values());
    }

    private static DoctorInputs.ConfigMapData data(String ns, ConfigMap cm) {
        var meta = cm.getMetadata();
        return new DoctorInputs.ConfigMapData(
                new ObjectRef("v1", "ConfigMap", ns, meta.getName(), meta.getUid()), cm.getData());
    }

    private void schema(String crdName, String version, Map<String, JsonNode> out) {
        CustomResourceDefinition crd = crd(crdName);
        if (crd == null || crd.getSpec() == null || crd.getSpec().getVersions() == null) {
            return;
        }
        crd.getSpec().getVersions().stream()
                .filter(v -> version.equals(v.getName()))
                .findFirst()
                .filter(v -> v.getSchema() != null && v.getSchema().getOpenAPIV3Schema() != null)
                .ifPresent(v -> out.put(
                        crdName,
                        client.getKubernetesSerialization()
                                .convertValue(v.getSchema().getOpenAPIV3Schema(), JsonNode.class)));
    }

    private DoctorInputs.Webhooks webhooks() {
        WebhookSettings w = settings.webhook();
        String name = w.configurationName();
        if (!w.enabled()) {
            // nothing is expected, and with admission off the chart grants no access to the certificate Secret
            return new DoctorInputs.Webhooks(false, name, null, Map.of(), w.manageConfigurations(), null);
        }
        try {
            return webhooks(w, name);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_FORBIDDEN) {
                throw e; // a failure of the API server is not a configuration its installer keeps
            }
            // under OLM, which makes the configurations and grants the bridge no access to them
            return new DoctorInputs.Webhooks(
                    true,
                    name,
                    null,
                    Map.of(),
                    w.manageConfigurations(),
                    "HTTP " + e.getCode()
                            + (e.getStatus() == null || e.getStatus().getReason() == null
                                    ? ""
                                    : " " + UserText.excerpt(e.getStatus().getReason())));
        }
    }

    private DoctorInputs.Webhooks webhooks(WebhookSettings w, String name) {
        Map<String, List<String>> found = new LinkedHashMap<>();
        var registration = client.admissionRegistration().v1();
        var mutating =
                registration.mutatingWebhookConfigurations().withName(name).get();
        if (mutating != null) {
            found.put(
                    "MutatingWebhookConfiguration",
                    caBundles(mutating.getWebhooks().stream().map(h -> h.getClientConfig())));
        }
        if (w.validateWorkloads()) {
            var validating = registration
                    .validatingWebhookConfigurations()
                    .withName(name)
                    .get();
            if (validating != null) {
                found.put(
                        "ValidatingWebhookConfiguration",
                        caBundles(validating.getWebhooks().stream().map(h -> h.getClientConfig())));
            }
        } else {
            // not served, so not expected: count it as present
            found.put("ValidatingWebhookConfiguration", null);
        }
        String ca = null;
        try {
            Secret secret = client.secrets()
                    .inNamespace(w.namespace())
                    .withName(w.tls().secretName())
                    .get();
            if (secret != null && secret.getData() != null && secret.getData().get("ca.crt") != null) {
                ca = decode(secret.getData().get("ca.crt"));
            }
        } catch (KubernetesClientException e) {
            ca = null;
        }
        List<String> secretCa = List.of(ca == null ? "" : ca);
        found.replaceAll((k, v) -> v == null ? secretCa : v);
        return new DoctorInputs.Webhooks(w.enabled(), name, ca, found, w.manageConfigurations(), null);
    }

    /** The CA bundle of each webhook of a configuration, decoded (empty where a webhook has none). */
    private static List<String> caBundles(Stream<WebhookClientConfig> configs) {
        return configs.map(c -> decode(c == null ? null : c.getCaBundle())).toList();
    }

    private static String decode(String base64) {
        if (base64 == null || base64.isEmpty()) {
            return "";
        }
        try {
            return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /** Sources that list from the API server (the {@code doctor} command). */
    public Sources listing() {
        return new Sources(
                () -> client.nodes().list().getItems().stream()
                        .map(NodeView::of)
                        .toList(),
                this::listHyperNodes,
                this::listQueues,
                this::listNamedQueues,
                true,
                Map::of);
    }

    private List<HyperNodeView> listHyperNodes() {
        if (crd(VolcanoApi.HYPERNODE_CRD) == null) {
            return List.of();
        }
        return client.resources(HyperNode.class).list().getItems().stream()
                .map(HyperNodeCache::view)
                .toList();
    }

    private Map<String, String> listQueues() {
        if (crd(VolcanoApi.QUEUE_CRD) == null) {
            return null;
        }
        return QueueNames.states(client.resources(Queue.class).list().getItems());
    }

    private Map<String, List<String>> listNamedQueues() {
        List<HasMetadata> workloads = new ArrayList<>();
        for (WorkloadKind kind : WorkloadKind.values()) {
            if (kind == WorkloadKind.REPLICA_SET || (kind.custom() && crd(kind.crdName()) == null)) {
                continue;
            }
            if (kind.custom()) {
                workloads.addAll(client.genericKubernetesResources(WorkloadCaches.definition(kind))
                        .inAnyNamespace()
                        .list()
                        .getItems());
            } else {
                workloads.addAll(
                        client.resources(kind.type()).inAnyNamespace().list().getItems());
            }
        }
        List<PodGroup> podGroups = crd(VolcanoApi.PODGROUP_CRD) != null
                ? client.resources(PodGroup.class)
                        .inAnyNamespace()
                        .withLabel(Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)
                        .list()
                        .getItems()
                : List.of();
        Map<String, String> namespaceQueues = new HashMap<>();
        for (var ns : client.namespaces().list().getItems()) {
            Map<String, String> a = ns.getMetadata().getAnnotations();
            if (a != null && a.get(VolcanoApi.QUEUE_NAME_ANNOTATION) != null) {
                namespaceQueues.put(ns.getMetadata().getName(), a.get(VolcanoApi.QUEUE_NAME_ANNOTATION));
            }
        }
        return QueueNames.named(workloads, podGroups, settings.defaultQueue(), namespaceQueues::get);
    }

    private CustomResourceDefinition crd(String name) {
        return client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(name)
                .get();
    }
}
