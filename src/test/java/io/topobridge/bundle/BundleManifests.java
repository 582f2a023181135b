package io.topobridge.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.testing.HelmChart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The bundle's manifests built from one rendering of the chart: the ClusterServiceVersion (the chart's Deployment,
 * ClusterRole and Role rules, service account and webhooks) and the chart's other objects OLM installs as they are.
 * Every object the chart renders is mapped or dropped by name here, so an object the chart starts to render fails the
 * generation until this class says what OLM does with it.
 *
 * <p>The chart is rendered with the values that match how OLM runs the bridge: OLM issues the webhook certificate
 * (Secret {@code <deployment>-service-cert}, with {@code tls.crt} and {@code tls.key}) and owns the webhook
 * configurations, so the bridge runs as with cert-manager ({@code admission.tls.mode=secret},
 * {@code manage-configurations=false}, no access to webhook configurations) reading OLM's Secret; and OLM's webhook
 * definitions cannot carry a namespaceSelector (OLM sets the OperatorGroup's), so the webhooks see every namespace and
 * the bridge manages annotated workloads in every namespace too ({@code workloads.requireNamespaceOptIn=false}): a pod
 * it ties always finds its PodGroup.
 */
record BundleManifests(ObjectNode csv, List<JsonNode> others) {

    static final String RELEASE = "topobridge";
    /** Where the chart is rendered: OLM decides the namespace, so no value of the bundle may keep this name. */
    static final String NAMESPACE = "olm-install-namespace";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** Labels Helm's release sets; OLM labels what it installs itself. */
    private static final List<String> HELM_LABELS = List.of("helm.sh/chart", "app.kubernetes.io/managed-by");

    BundleManifests {
        others = List.copyOf(others);
    }

    /** The CSV first, then the other objects by kind and name. */
    List<JsonNode> objects() {
        List<JsonNode> all = new ArrayList<>();
        all.add(csv);
        all.addAll(others);
        return all;
    }

    /** The chart values of a bundle install (see the class comment). */
    static Map<String, Object> values(String deployment) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("certManager.enabled", true);
        values.put("admission.tls.secretName", deployment + "-service-cert");
        values.put("workloads.requireNamespaceOptIn", false);
        return values;
    }

    /**
     * The bundle of the chart in {@code chartDir} ({@code chart} its {@code Chart.yaml}), the Volcano APIs read from
     * {@code crds}; the image the chart's own unless {@code imageRepository} names another (a release's).
     */
    static BundleManifests from(Path chartDir, Chart chart, Path crds, String imageRepository) {
        Map<String, Object> values = values(RELEASE);
        if (imageRepository != null) {
            values.put("image.repository", imageRepository);
        }
        HelmChart.Rendered rendered = HelmChart.render(chartDir, RELEASE, NAMESPACE, values);
        JsonNode deployment = rendered.one("Deployment");
        String name = deployment.path("metadata").path("name").asText();
        if (!name.equals(RELEASE)) {
            throw new IllegalStateException("the chart names its Deployment " + name + ", not " + RELEASE
                    + " (the name values() gives OLM's certificate Secret)");
        }
        String account = deployment.at("/spec/template/spec/serviceAccountName").asText();
        List<JsonNode> webhookConfigurations = new ArrayList<>();
        webhookConfigurations.addAll(rendered.all("MutatingWebhookConfiguration"));
        webhookConfigurations.addAll(rendered.all("ValidatingWebhookConfiguration"));
        String webhookService = webhookConfigurations.isEmpty()
                ? null
                : webhookConfigurations
                        .get(0)
                        .at("/webhooks/0/clientConfig/service/name")
                        .asText();
        List<JsonNode> others = new ArrayList<>();
        JsonNode clusterRole = null;
        JsonNode role = null;
        for (JsonNode object : rendered.objects()) {
            String kind = object.path("kind").asText();
            String objectName = object.path("metadata").path("name").asText();
            switch (kind) {
                case "Deployment", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration" -> {}
                case "ServiceAccount" -> requireAccount(object, account);
                case "ClusterRole" -> {
                    if (objectName.equals(name)) {
                        clusterRole = object;
                    } else {
                        others.add(plain(object)); // the readers' roles, bound by the cluster's admins
                    }
                }
                case "Role" -> role = object;
                case "ClusterRoleBinding", "RoleBinding" -> requireBinding(object, account);
                case "Service" -> {
                    if (!objectName.equals(webhookService)) {
                        others.add(plain(object));
                    }
                }
                case "PodDisruptionBudget" -> others.add(plain(object));
                // OLM issues the certificate; NetworkPolicy is not among the kinds every OLM release installs
                case "Certificate", "Issuer", "NetworkPolicy" -> {}
                default ->
                    throw new IllegalStateException("the chart renders " + kind + " " + objectName
                            + ", which the OLM bundle neither maps nor drops: say what OLM does with it in "
                            + BundleManifests.class.getSimpleName());
            }
        }
        JsonNode service = webhookService == null ? null : rendered.named("Service", webhookService);
        ObjectNode csv = ClusterServiceVersion.build(
                chart,
                deployment(deployment, account),
                rules(clusterRole),
                rules(role),
                WebhookDefinitions.from(webhookConfigurations, service, deployment),
                VolcanoApis.read(crds));
        List<JsonNode> sorted = others.stream()
                .sorted(Comparator.comparing(OlmBundle::fileName))
                .toList();
        BundleManifests manifests = new BundleManifests(csv, sorted);
        requireNoInstallNamespace(manifests);
        return manifests;
    }

    /**
     * The role's rules but those on webhook configurations: OLM makes and names those itself (not as the chart
     * does), so a rule naming the chart's would grant nothing.
     */
    private static ArrayNode rules(JsonNode role) {
        ArrayNode rules = JSON.arrayNode();
        if (role != null) {
            for (JsonNode rule : role.path("rules")) {
                if (!rule.path("apiGroups").toString().contains("admissionregistration.k8s.io")) {
                    rules.add(rule.deepCopy());
                }
            }
        }
        return rules;
    }

    /** OLM makes the service account from the CSV: it can carry nothing but its name. */
    private static void requireAccount(JsonNode object, String account) {
        if (!object.path("metadata").path("name").asText().equals(account)
                || !object.path("metadata").path("annotations").isMissingNode()) {
            throw new IllegalStateException("the chart renders ServiceAccount " + object.path("metadata")
                    + "; OLM makes only the Deployment's (" + account + "), without annotations");
        }
    }

    /** OLM binds the CSV's rules to the service account itself; a chart binding of anything else is not mapped. */
    private static void requireBinding(JsonNode binding, String account) {
        for (JsonNode subject : binding.path("subjects")) {
            if (!subject.path("kind").asText().equals("ServiceAccount")
                    || !subject.path("name").asText().equals(account)) {
                throw new IllegalStateException("the chart binds " + subject + " in "
                        + binding.path("metadata").path("name").asText() + ", which the OLM bundle does not map");
            }
        }
    }

    /**
     * The chart's Deployment as a CSV install strategy deployment: its labels without Helm's, and each environment value
     * naming the release namespace read from the pod instead (OLM decides the namespace). The webhook Service is OLM's
     * {@code <deployment>-service}, so the bridge names the Service the API server calls.
     */
    private static ObjectNode deployment(JsonNode deployment, String account) {
        ObjectNode spec = deployment.path("spec").deepCopy();
        String name = deployment.path("metadata").path("name").asText();
        for (JsonNode container : spec.at("/template/spec/containers")) {
            for (JsonNode variable : container.path("env")) {
                ObjectNode env = (ObjectNode) variable;
                if (env.path("name").asText().equals("TOPOBRIDGE_ADMISSION_SERVICE_NAME")) {
                    env.put("value", name + "-service");
                } else if (env.path("value").asText().equals(NAMESPACE)) {
                    env.remove("value");
                    env.putObject("valueFrom").putObject("fieldRef").put("fieldPath", "metadata.namespace");
                }
            }
        }
        if (!spec.at("/template/spec/serviceAccountName").asText().equals(account)) {
            throw new IllegalStateException("the Deployment's service account changed while mapping it");
        }
        ObjectNode out = JSON.objectNode();
        out.put("name", name);
        out.set("label", labels(deployment));
        out.set("spec", spec);
        return out;
    }

    private static ObjectNode labels(JsonNode object) {
        ObjectNode labels = object.path("metadata").path("labels").deepCopy();
        labels.remove(HELM_LABELS);
        return labels;
    }

    /** An object OLM installs as it is, in the operator's namespace: no namespace of its own, no Helm labels. */
    private static JsonNode plain(JsonNode object) {
        ObjectNode copy = object.deepCopy();
        ObjectNode metadata = (ObjectNode) copy.path("metadata");
        metadata.remove("namespace");
        metadata.set("labels", labels(object));
        return copy;
    }

    private static void requireNoInstallNamespace(BundleManifests manifests) {
        for (JsonNode object : manifests.objects()) {
            String text = object.toString();
            if (text.contains(NAMESPACE)) {
                throw new IllegalStateException(object.path("kind").asText() + " "
                        + object.path("metadata").path("name").asText() + " still names the namespace the chart was "
                        + "rendered in (" + NAMESPACE + "), which OLM decides: map that field in "
                        + BundleManifests.class.getSimpleName());
            }
        }
    }

    /** The Volcano kinds the bridge reads and writes, as crds/ defines them: the APIs the cluster must serve. */
    record VolcanoApis(List<ObjectNode> kinds) {

        VolcanoApis {
            kinds = List.copyOf(kinds);
        }

        static VolcanoApis read(Path crds) {
            List<ObjectNode> kinds = new ArrayList<>();
            try (Stream<Path> files = Files.list(crds)) {
                for (Path file : files.sorted().toList()) {
                    JsonNode crd = new YAMLMapper().readTree(file.toFile());
                    if (!crd.path("kind").asText().equals("CustomResourceDefinition")) {
                        continue;
                    }
                    for (JsonNode version : crd.at("/spec/versions")) {
                        if (version.path("storage").asBoolean()) {
                            ObjectNode gvk = JSON.objectNode();
                            gvk.put("group", crd.at("/spec/group").asText());
                            gvk.put("version", version.path("name").asText());
                            gvk.put("kind", crd.at("/spec/names/kind").asText());
                            kinds.add(gvk);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the CRDs in " + crds, e);
            }
            if (kinds.isEmpty()) {
                throw new IllegalStateException("no CustomResourceDefinition in " + crds);
            }
            return new VolcanoApis(kinds);
        }
    }
}
