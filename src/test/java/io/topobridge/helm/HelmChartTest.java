package io.topobridge.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import io.topobridge.testing.ConfigKeys;
import io.topobridge.core.workload.WorkloadKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The chart in helm/ lints, renders, and stays in step with the configuration keys and the APIs used. */
class HelmChartTest {

    private static final Path CHART = Path.of("helm", "topobridge");
    private static final YAMLMapper YAML = new YAMLMapper();

    private static List<JsonNode> render() throws IOException {
        return parse(new Helm(CHART).template().withKubeVersion("1.31.0").withName("tb").withNamespace("topobridge-system").call());
    }

    private static List<JsonNode> parse(String manifest) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = YAML.createParser(manifest)) {
            Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class);
            it.forEachRemaining(d -> {
                if (d != null && d.has("kind")) {
                    docs.add(d);
                }
            });
        }
        return docs;
    }

    private static JsonNode one(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " rendered"));
    }

    @Test
    void lintsCleanly() {
        var result = new Helm(CHART).lint().strict().call();
        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
    }

    @Test
    void everyEnvironmentVariableIsAConfigurationKey() throws IOException {
        Set<String> keys = ConfigKeys.all();
        Set<String> envKeys = new TreeSet<>();
        keys.forEach(k -> envKeys.add(k.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_")));

        JsonNode container = one(render(), "Deployment").path("spec").path("template").path("spec").path("containers").get(0);
        List<String> unknown = new ArrayList<>();
        for (JsonNode env : container.path("env")) {
            String name = env.path("name").asText();
            if (name.startsWith("TOPOBRIDGE_") && !envKeys.contains(name)) {
                unknown.add(name);
            }
        }
        assertThat(unknown).as("chart env vars that match no topobridge.* key " + keys).isEmpty();
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/q/health/ready");
        assertThat(container.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/q/health/live");
    }

    @Test
    void webhookServiceReachesTheWebhookServer() throws IOException {
        var docs = render();
        JsonNode service = one(docs, "Service");
        JsonNode container = one(docs, "Deployment").path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(service.path("spec").path("ports").get(0).path("port").asInt()).isEqualTo(443);
        String target = service.path("spec").path("ports").get(0).path("targetPort").asText();
        int webhookPort = -1;
        for (JsonNode port : container.path("ports")) {
            if (port.path("name").asText().equals(target)) {
                webhookPort = port.path("containerPort").asInt();
            }
        }
        assertThat(webhookPort).as("container port named " + target).isEqualTo(8443);
        assertThat(env(container, "TOPOBRIDGE_ADMISSION_SERVICE_NAME")).isEqualTo(service.path("metadata").path("name").asText());
        assertThat(env(container, "TOPOBRIDGE_ADMISSION_SERVICE_NAMESPACE")).isEqualTo("topobridge-system");
        // the bridge's own pods carry the label its webhook excludes
        String selfLabel = env(container, "TOPOBRIDGE_ADMISSION_SELF_POD_LABEL");
        String[] kv = selfLabel.split("=", 2);
        assertThat(one(docs, "Deployment").path("spec").path("template").path("metadata").path("labels").path(kv[0]).asText())
                .isEqualTo(kv[1]);
    }

    private static String env(JsonNode container, String name) {
        for (JsonNode env : container.path("env")) {
            if (env.path("name").asText().equals(name)) {
                return env.path("value").asText();
            }
        }
        throw new AssertionError("no env " + name);
    }

    @Test
    void explicitTiersBecomeOneVariable() throws IOException {
        var docs = parse(new Helm(CHART).template().withKubeVersion("1.31.0").withName("tb").withNamespace("ns")
                .set("topology.tiers[0]", "nvidia.com/gpu.clique=nvlink")
                .set("topology.tiers[1]", "example.com/rack=rack").call());
        JsonNode container = one(docs, "Deployment").path("spec").path("template").path("spec").path("containers").get(0);
        String tiers = null;
        for (JsonNode env : container.path("env")) {
            if (env.path("name").asText().equals("TOPOBRIDGE_TOPOLOGY_TIERS")) {
                tiers = env.path("value").asText();
            }
        }
        assertThat(tiers).isEqualTo("nvidia.com/gpu.clique=nvlink,example.com/rack=rack");
    }

    @Test
    void clusterRoleCoversEveryApiTheControllerReads() throws IOException {
        JsonNode role = one(render(), "ClusterRole");
        List<String> missing = new ArrayList<>();
        for (WorkloadKind kind : WorkloadKind.values()) {
            if (!allows(role, kind.group(), kind.plural(), "watch")) {
                missing.add(kind.group() + "/" + kind.plural());
            }
        }
        for (String[] api : new String[][] {{"", "nodes", "watch"}, {"topology.volcano.sh", "hypernodes", "patch"},
            {"topology.volcano.sh", "hypernodes", "delete"}, {"scheduling.volcano.sh", "podgroups", "patch"},
            {"scheduling.volcano.sh", "podgroups", "delete"}, {"scheduling.volcano.sh", "queues", "watch"},
            {"apiextensions.k8s.io", "customresourcedefinitions", "watch"}, {"", "events", "create"},
            {"", "configmaps", "watch"}}) {
            if (!allows(role, api[0], api[1], api[2])) {
                missing.add(api[0] + "/" + api[1] + ":" + api[2]);
            }
        }
        assertThat(missing).isEmpty();
    }

    private static boolean allows(JsonNode role, String group, String resource, String verb) {
        for (JsonNode rule : role.path("rules")) {
            if (contains(rule.path("apiGroups"), group) && contains(rule.path("resources"), resource)
                    && contains(rule.path("verbs"), verb)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(JsonNode list, String value) {
        for (JsonNode item : list) {
            if (item.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }
}
