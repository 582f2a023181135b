package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topobridge.apply.FieldPaths;
import io.topobridge.core.Topobridge;
import io.topobridge.e2e.AuditLog.Write;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the real API server records for the bridge's server-side applies, of every kind it applies: the
 * matcher ({@link FieldPaths}) must read the server's own {@code managedFields} as "nothing to write". The
 * applies (request and response, from the audit log) are kept as fixtures under
 * {@code src/test/resources/managed-fields/} for the matcher's unit tests; this test fails when the server's
 * notation for them changes (rewrite them with {@code -Dfixtures.update=true}).
 */
@ExtendWith(RealClusterExtension.class)
class ServerSideApplyE2E {

    static final Path FIXTURES = Path.of("src", "test", "resources", "managed-fields");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String NS = "ssa-e2e";

    @RegisterExtension
    final TestNamespace namespace = TestNamespace.forEachTest(NS);

    private final RealCluster cluster;

    ServerSideApplyE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void theServersManagedFieldsReadAsUpToDateForEveryKindApplied() throws IOException {
        var client = cluster.client();
        Examples.ensureNodes(client);
        long mark = cluster.audit().mark();
        cluster.stopBridge();
        // every kind is applied whatever ran before (test classes run in no fixed order): no HyperNodes to start from
        var hyperNodes = client.genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode");
        hyperNodes.withLabel("volcano.sh/network-topology-source", "topobridge").delete();
        cluster.waitFor(
                "no HyperNodes",
                Duration.ofSeconds(60),
                () -> hyperNodes.list().getItems().isEmpty());
        // a fresh start applies the webhook configurations even when they exist
        client.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .withName("topobridge")
                .delete();
        client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName("topobridge")
                .delete();
        client.apps()
                .deployments()
                .inNamespace(NS)
                .resource(DeploymentWrapper.make("web", null)
                        .highestTier("leaf")
                        .cpu("1")
                        .obj())
                .create();
        cluster.bridge();
        PodGroups.await(cluster, client, NS, "tb-deploy-web");
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(120));

        Map<String, Write> cases = new LinkedHashMap<>();
        for (Write w : cluster.audit()
                .writesSince(
                        mark,
                        w -> w.user().equals(RealCluster.BRIDGE)
                                && w.verb().equals("patch")
                                && w.succeeded()
                                && w.requestObject() != null)) {
            String name = switch (w.resource()) {
                case "hypernodes" -> "hypernode";
                case "podgroups" -> "podgroup";
                case "mutatingwebhookconfigurations" -> "mutatingwebhookconfiguration";
                case "validatingwebhookconfigurations" -> "validatingwebhookconfiguration";
                default -> null;
            };
            // PodGroups of other classes' namespaces may be patched in the same window (classes run in no fixed
            // order, and a restarted bridge resyncs what they left): only this class's Deployment is the case
            if (name != null && (!name.equals("podgroup") || NS.equals(w.namespace()))) {
                cases.putIfAbsent(name, w);
            }
        }
        assertThat(cases)
                .containsOnlyKeys(
                        "hypernode", "podgroup", "mutatingwebhookconfiguration", "validatingwebhookconfiguration");

        Files.createDirectories(FIXTURES);
        for (var e : cases.entrySet()) {
            JsonNode desired = e.getValue().requestObject();
            JsonNode current = e.getValue().responseObject();
            assertThat(FieldPaths.upToDate(desired, current, Topobridge.FIELD_MANAGER))
                    .as(e.getKey() + ": the server's answer to our apply holds everything we applied")
                    .isTrue();
            ObjectNode fixture = JSON.createObjectNode();
            fixture.set("desired", desired);
            fixture.set("current", current);
            Path file = FIXTURES.resolve(e.getKey() + ".json");
            Path recorded = cluster.runDir().resolve("managed-fields").resolve(e.getKey() + ".json");
            Files.createDirectories(recorded.getParent());
            Files.writeString(recorded, JSON.writeValueAsString(fixture));
            if (Boolean.getBoolean("fixtures.update") || !Files.exists(file)) {
                Files.writeString(file, JSON.writeValueAsString(fixture));
            }
            JsonNode committed = JSON.readTree(file.toFile());
            assertThat(ourFields(committed.get("current")))
                    .as(e.getKey() + ": the server records our fields as the committed fixture says (" + recorded + ")")
                    .isEqualTo(ourFields(current));
        }
    }

    /** The {@code fieldsV1} of the bridge's apply entry, with names that differ between runs left as they are. */
    private static JsonNode ourFields(JsonNode object) {
        for (JsonNode entry : object.path("metadata").path("managedFields")) {
            if (Topobridge.FIELD_MANAGER.equals(entry.path("manager").asText())
                    && "Apply".equals(entry.path("operation").asText())) {
                return normalized(entry.path("fieldsV1"));
            }
        }
        return null;
    }

    /** Owner uids and CA bundles differ between runs; the structure must not. */
    private static JsonNode normalized(JsonNode fields) {
        String text =
                fields.toString().replaceAll("\\\\\"uid\\\\\":\\\\\"[^\\\\]*\\\\\"", "\\\\\"uid\\\\\":\\\\\"*\\\\\"");
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Path> fixtures() throws IOException {
        try (var files = Files.list(FIXTURES)) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
    }
}
