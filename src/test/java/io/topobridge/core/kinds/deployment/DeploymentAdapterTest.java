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
 * A Deployment's rollout takes nothing down only when it is a RollingUpdate with {@code maxUnavailable} 0: read from
 * the typed object (the controller's cache) and from the same object as a generic resource (files, the webhook),
 * the answer is the same.
 */
class DeploymentAdapterTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static Stream<Arguments> strategies() {
        return Stream.of(
                Arguments.of("no strategy (Kubernetes' default 25 %)", "", false),
                Arguments.of("Recreate", "strategy: {type: Recreate}", false),
                Arguments.of("RollingUpdate without rollingUpdate", "strategy: {type: RollingUpdate}", false),
                Arguments.of("maxUnavailable 0", "strategy: {rollingUpdate: {maxUnavailable: 0}}", true),
                Arguments.of("maxUnavailable \"0%\"", "strategy: {rollingUpdate: {maxUnavailable: \"0%\"}}", true),
                Arguments.of("maxUnavailable \"0\"", "strategy: {rollingUpdate: {maxUnavailable: \"0\"}}", true),
                Arguments.of("maxUnavailable 1", "strategy: {rollingUpdate: {maxUnavailable: 1}}", false),
                Arguments.of("maxUnavailable 25%", "strategy: {rollingUpdate: {maxUnavailable: 25%}}", false),
                Arguments.of(
                        "RollingUpdate, maxUnavailable 0",
                        "strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 2, maxUnavailable: 0}}",
                        true),
                Arguments.of(
                        "Recreate with a stray maxUnavailable 0",
                        "strategy: {type: Recreate, rollingUpdate: {maxUnavailable: 0}}",
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void typedAndGenericDeploymentsAgree(String name, String strategy, boolean surgeOnly) throws Exception {
        String yaml =
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ns}\nspec:\n  replicas: 2\n"
                        + (strategy.isEmpty() ? "" : "  " + strategy + "\n");
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
