package io.topobridge.core.kinds.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.topobridge.core.workload.kind.Workload;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Deployment's rollout takes nothing down when its RollingUpdate's {@code maxUnavailable} comes to 0 as the
 * Deployment controller resolves it (percentages rounded down on the replicas, {@code maxSurge} rounded up, 25 % each
 * by default, one pod down after all when both come to 0): read from the typed object (the controller's cache) and
 * from the same object as a generic resource (files, the webhook), the answer is the same.
 */
class DeploymentAdapterTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static Stream<Arguments> strategies() {
        return Stream.of(
                Arguments.of("no strategy, 2 replicas (25 % of 2 is 0 down, 1 up)", 2, "", true),
                Arguments.of("no strategy, 3 replicas", 3, "", true),
                Arguments.of("no strategy, 4 replicas (25 % of 4 is 1 down)", 4, "", false),
                Arguments.of("no strategy, replicas unset (1)", -1, "", true),
                Arguments.of("Recreate", 2, "strategy: {type: Recreate}", false),
                Arguments.of(
                        "RollingUpdate without rollingUpdate, 2 replicas", 2, "strategy: {type: RollingUpdate}", true),
                Arguments.of(
                        "RollingUpdate without rollingUpdate, 8 replicas", 8, "strategy: {type: RollingUpdate}", false),
                Arguments.of("maxUnavailable 0", 8, "strategy: {rollingUpdate: {maxUnavailable: 0}}", true),
                Arguments.of("maxUnavailable \"0%\"", 8, "strategy: {rollingUpdate: {maxUnavailable: \"0%\"}}", true),
                Arguments.of("maxUnavailable \"0\"", 8, "strategy: {rollingUpdate: {maxUnavailable: \"0\"}}", true),
                Arguments.of("maxUnavailable 1", 2, "strategy: {rollingUpdate: {maxUnavailable: 1}}", false),
                Arguments.of("maxUnavailable 25% of 4", 4, "strategy: {rollingUpdate: {maxUnavailable: 25%}}", false),
                Arguments.of(
                        "maxUnavailable 10% of 9 (0)", 9, "strategy: {rollingUpdate: {maxUnavailable: 10%}}", true),
                Arguments.of(
                        "0 down and 0 up: the controller takes one down",
                        2,
                        "strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 10%}}",
                        false),
                Arguments.of(
                        "RollingUpdate, maxUnavailable 0",
                        2,
                        "strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 2, maxUnavailable: 0}}",
                        true),
                Arguments.of(
                        "not a count (the API server's to refuse)",
                        2,
                        "strategy: {rollingUpdate: {maxUnavailable: x}}",
                        false),
                Arguments.of(
                        "Recreate with a stray maxUnavailable 0",
                        2,
                        "strategy: {type: Recreate, rollingUpdate: {maxUnavailable: 0}}",
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void typedAndGenericDeploymentsAgree(String name, int replicas, String strategy, boolean surgeOnly)
            throws Exception {
        String yaml = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ns}\nspec:\n"
                + (replicas < 0 ? "" : "  replicas: " + replicas + "\n")
                + (strategy.isEmpty() ? "  selector: {}\n" : "  " + strategy + "\n");
        var adapter = new DeploymentAdapter();
        assertThat(adapter.surgeOnlyRollout(read(yaml, Deployment.class))).isEqualTo(surgeOnly);
        assertThat(adapter.surgeOnlyRollout(read(yaml, GenericKubernetesResource.class)))
                .isEqualTo(surgeOnly);
    }

    private static Workload read(String yaml, Class<? extends HasMetadata> type) throws Exception {
        HasMetadata object = YAML.readValue(yaml, type);
        return Workload.of(object).orElseThrow();
    }
}
