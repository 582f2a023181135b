package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The registered webhooks select what they must and never what they must not (kube-system, the bridge itself). */
class WebhookConfigurationsTest {

    private static final WebhookSettings DEFAULTS =
            WebhookSettings.from(WebhookSettingsTest.config(Map.of()), false, "ops");
    private static final WebhookSettings OPT_IN =
            WebhookSettings.from(WebhookSettingsTest.config(Map.of()), true, "ops");

    /** The API server's label selector semantics for matchExpressions (In, NotIn, Exists, DoesNotExist). */
    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector.getMatchLabels() != null
                && !selector.getMatchLabels().entrySet().stream()
                        .allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
            return false;
        }
        for (LabelSelectorRequirement r : selector.getMatchExpressions() == null
                ? List.<LabelSelectorRequirement>of()
                : selector.getMatchExpressions()) {
            String value = labels.get(r.getKey());
            boolean ok = switch (r.getOperator()) {
                case "In" -> value != null && r.getValues().contains(value);
                case "NotIn" -> value == null || !r.getValues().contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new IllegalArgumentException(r.getOperator());
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, String> namespace(String name, boolean optedIn) {
        return optedIn
                ? Map.of("kubernetes.io/metadata.name", name, "topobridge.io/enabled", "true")
                : Map.of("kubernetes.io/metadata.name", name);
    }

    static Stream<Arguments> namespaces() {
        return Stream.of(
                Arguments.of("opted-in namespace", namespace("ml", true), true, true),
                Arguments.of("namespace without the label", namespace("ml", false), false, true),
                Arguments.of(
                        "label with another value",
                        Map.of("kubernetes.io/metadata.name", "ml", "topobridge.io/enabled", "yes"),
                        false,
                        true),
                Arguments.of("kube-system even when labelled", namespace("kube-system", true), false, false),
                Arguments.of("kube-system", namespace("kube-system", false), false, false),
                Arguments.of("the bridge's own namespace even when labelled", namespace("ops", true), false, false),
                Arguments.of("the bridge's own namespace", namespace("ops", false), false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("namespaces")
    void namespaceSelectors(String name, Map<String, String> labels, boolean pods, boolean workloads) {
        assertThat(matches(
                        WebhookConfigurations.mutating(DEFAULTS, "x")
                                .getWebhooks()
                                .get(0)
                                .getNamespaceSelector(),
                        labels))
                .as("pod webhook")
                .isEqualTo(pods);
        assertThat(matches(
                        WebhookConfigurations.validating(DEFAULTS, "x")
                                .getWebhooks()
                                .get(0)
                                .getNamespaceSelector(),
                        labels))
                .as("workload webhook")
                .isEqualTo(workloads);
        assertThat(matches(
                        WebhookConfigurations.validating(OPT_IN, "x")
                                .getWebhooks()
                                .get(0)
                                .getNamespaceSelector(),
                        labels))
                .as("workload webhook when workloads require the opt-in")
                .isEqualTo(pods);
        assertThat(matches(
                        WebhookConfigurations.mutating(DEFAULTS, "x")
                                .getWebhooks()
                                .get(1)
                                .getNamespaceSelector(),
                        labels))
                .as("PodGroup webhook")
                .isEqualTo(pods);
    }

    @Test
    void aBridgeInKubeSystemNamesItOnce() {
        var inKubeSystem = WebhookSettings.from(WebhookSettingsTest.config(Map.of()), false, "kube-system");
        assertThat(WebhookConfigurations.mutating(inKubeSystem, "x")
                        .getWebhooks()
                        .get(0)
                        .getNamespaceSelector()
                        .getMatchExpressions()
                        .get(1)
                        .getValues())
                .containsExactly("kube-system");
    }

    @Test
    void theBridgesOwnPodsAreNeverIntercepted() {
        LabelSelector objects = WebhookConfigurations.mutating(DEFAULTS, "x")
                .getWebhooks()
                .get(0)
                .getObjectSelector();
        assertThat(matches(objects, Map.of("app.kubernetes.io/name", "topobridge")))
                .isFalse();
        assertThat(matches(objects, Map.of("app.kubernetes.io/name", "vllm"))).isTrue();
        assertThat(matches(objects, Map.of())).isTrue();
    }

    @Test
    void everyDefaultableFieldIsSetSoAReadBackEqualsTheApply() {
        var pods = WebhookConfigurations.mutating(DEFAULTS, "PEM").getWebhooks().get(0);
        assertThat(pods.getFailurePolicy()).isEqualTo("Ignore");
        assertThat(pods.getMatchPolicy()).isEqualTo("Equivalent");
        assertThat(pods.getReinvocationPolicy()).isEqualTo("Never");
        assertThat(pods.getSideEffects()).isEqualTo("None");
        assertThat(pods.getTimeoutSeconds()).isEqualTo(3);
        assertThat(pods.getAdmissionReviewVersions()).containsExactly("v1");
        assertThat(pods.getRules()).allSatisfy(r -> assertThat(r.getScope()).isEqualTo("Namespaced"));
        assertThat(pods.getClientConfig().getService().getPort()).isEqualTo(443);
        assertThat(new String(Base64.getDecoder().decode(pods.getClientConfig().getCaBundle()), StandardCharsets.UTF_8))
                .isEqualTo("PEM");
        var workloads =
                WebhookConfigurations.validating(DEFAULTS, "PEM").getWebhooks().get(0);
        assertThat(workloads.getObjectSelector()).isNotNull();
        assertThat(workloads.getRules())
                .allSatisfy(r -> assertThat(r.getScope()).isEqualTo("Namespaced"));
        assertThat(WebhookConfigurations.mutating(DEFAULTS, "PEM").getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/managed-by", "topobridge");
    }
}
