package io.topobridge.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The bundle's ClusterServiceVersion: the chart's metadata and version, one {@code deployment} install strategy with the
 * chart's rules for its service account, the webhook definitions, AllNamespaces as the only install mode, and the
 * Volcano kinds as {@code nativeAPIs}. Volcano is installed with its own chart, not by OLM, and OLM satisfies a
 * {@code customresourcedefinitions.required} entry only with another operator of a catalog that owns the CRD, so
 * required entries would make the bundle uninstallable next to a Helm-installed Volcano; a native API only has to be
 * served by the cluster, which OLM checks before it installs. The bridge owns no CRD.
 */
final class ClusterServiceVersion {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ClusterServiceVersion() {}

    static ObjectNode build(
            Chart chart,
            ObjectNode deployment,
            ArrayNode clusterRules,
            ArrayNode namespaceRules,
            ArrayNode webhooks,
            BundleManifests.VolcanoApis volcano) {
        String account = deployment.at("/spec/template/spec/serviceAccountName").asText();
        String image = deployment.at("/spec/template/spec/containers/0/image").asText();
        String description = chart.description()
                + ". It needs Volcano installed in the cluster (its HyperNode, PodGroup and Queue APIs and its scheduler).";
        ObjectNode csv = JSON.objectNode();
        csv.put("apiVersion", "operators.coreos.com/v1alpha1");
        csv.put("kind", "ClusterServiceVersion");
        ObjectNode metadata = csv.putObject("metadata");
        // an object name takes no capitals: a pre-release such as 0.2.0-SNAPSHOT names topobridge.v0.2.0-snapshot
        metadata.put("name", chart.name() + ".v" + chart.version().toLowerCase(java.util.Locale.ROOT));
        ObjectNode labels = JSON.objectNode();
        for (String arch : architectures(deployment)) {
            labels.put("operatorframework.io/arch." + arch, "supported");
        }
        if (!labels.isEmpty()) {
            labels.put("operatorframework.io/os.linux", "supported");
            metadata.set("labels", labels);
        }
        ObjectNode annotations = metadata.putObject("annotations");
        annotations.put("capabilities", "Basic Install");
        annotations.put("containerImage", image);
        annotations.put("description", chart.description());
        annotations.put("operatorframework.io/suggested-namespace", "topobridge-system");
        ObjectNode spec = csv.putObject("spec");
        spec.put("displayName", chart.name());
        spec.put("description", description);
        spec.put("version", chart.version());
        spec.put("minKubeVersion", chart.minKubeVersion());
        spec.put("maturity", "alpha");
        spec.putObject("provider").put("name", chart.name());
        ArrayNode keywords = spec.putArray("keywords");
        chart.keywords().forEach(keywords::add);
        ArrayNode modes = spec.putArray("installModes");
        for (String mode : new String[] {"OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces"}) {
            // the bridge watches nodes, HyperNodes and workloads cluster-wide: one install serves the whole cluster
            modes.addObject().put("type", mode).put("supported", mode.equals("AllNamespaces"));
        }
        ObjectNode install = spec.putObject("install");
        install.put("strategy", "deployment");
        ObjectNode strategy = install.putObject("spec");
        strategy.putArray("clusterPermissions").add(permission(account, clusterRules));
        if (!namespaceRules.isEmpty()) {
            strategy.putArray("permissions").add(permission(account, namespaceRules));
        }
        strategy.putArray("deployments").add(deployment);
        spec.set("webhookdefinitions", webhooks);
        ArrayNode nativeApis = spec.putArray("nativeAPIs");
        volcano.kinds().forEach(nativeApis::add);
        spec.putArray("relatedImages")
                .addObject()
                .put(
                        "name",
                        deployment.at("/spec/template/spec/containers/0/name").asText())
                .put("image", image);
        return csv;
    }

    /**
     * The CPU architectures the Deployment's required node affinity allows (those the image is built for), which OLM's
     * catalogs show as the operator's; none when the chart places the pods anywhere.
     */
    static List<String> architectures(JsonNode deployment) {
        List<String> out = new ArrayList<>();
        JsonNode terms = deployment.at("/spec/template/spec/affinity/nodeAffinity"
                + "/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms");
        for (JsonNode term : terms) {
            for (JsonNode expression : term.path("matchExpressions")) {
                if (expression.path("key").asText().equals("kubernetes.io/arch")
                        && expression.path("operator").asText().equals("In")) {
                    expression.path("values").forEach(v -> out.add(v.asText()));
                }
            }
        }
        return out;
    }

    private static JsonNode permission(String account, ArrayNode rules) {
        ObjectNode permission = JSON.objectNode();
        permission.put("serviceAccountName", account);
        permission.set("rules", rules);
        return permission;
    }
}
