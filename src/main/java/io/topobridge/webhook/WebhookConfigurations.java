package io.topobridge.webhook;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The two webhook configurations as the bridge applies them: one source of truth for rules, selectors,
 * failure policies and {@code caBundle}. Every field the API server would default is set explicitly, so the
 * object read back equals the one applied and an unchanged check writes nothing.
 */
public final class WebhookConfigurations {

    /** Namespaces whose pods and workloads are never intercepted, whatever their labels (with the bridge's own). */
    public static final List<String> SYSTEM_NAMESPACES = List.of("kube-system");

    /**
     * kube-system and the bridge's own namespace: nothing there is intercepted, whatever its labels. A tenant who may
     * label a namespace cannot make the bridge's own pods (or anything beside them) wait on the bridge's webhooks.
     */
    public static List<String> excludedNamespaces(WebhookSettings settings) {
        return Stream.concat(SYSTEM_NAMESPACES.stream(), Stream.of(settings.namespace()))
                .distinct()
                .toList();
    }

    static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";
    public static final String POD_WEBHOOK = "pods.topobridge.io";
    public static final String WORKLOAD_WEBHOOK = "workloads.topobridge.io";
    public static final String PODGROUP_WEBHOOK = "podgroups.topobridge.io";

    public static MutatingWebhookConfiguration mutating(WebhookSettings settings, String caBundlePem) {
        MutatingWebhook pods = mutatingWebhook(settings, POD_WEBHOOK, PodMutator.PATH, caBundlePem)
                .withRules(rule(List.of("CREATE"), "", "v1", "pods"))
                .withObjectSelector(notIn(settings.selfLabelKey(), settings.selfLabelValue()))
                .withFailurePolicy(settings.podFailurePolicy())
                .build();
        List<MutatingWebhook> webhooks = new ArrayList<>(List.of(pods));
        if (settings.adoptPodGroups()) {
            // other controllers' PodGroups in opted-in namespaces; the bridge's own are applied, not mutated
            webhooks.add(mutatingWebhook(settings, PODGROUP_WEBHOOK, PodGroupMutator.PATH, caBundlePem)
                    .withRules(rule(
                            List.of("CREATE", "UPDATE"),
                            VolcanoApi.SCHEDULING_GROUP,
                            VolcanoApi.SCHEDULING_VERSION,
                            "podgroups"))
                    .withObjectSelector(notIn(Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY))
                    .withFailurePolicy("Ignore")
                    .build());
        }
        return new MutatingWebhookConfigurationBuilder()
                .withMetadata(metadata(settings))
                .withWebhooks(webhooks)
                .build();
    }

    /** A mutating webhook of the opted-in namespaces with the fields both share (those the API server defaults). */
    private static MutatingWebhookBuilder mutatingWebhook(
            WebhookSettings settings, String name, String path, String caBundlePem) {
        return new MutatingWebhookBuilder()
                .withName(name)
                .withClientConfig(clientConfig(settings, path, caBundlePem))
                .withNamespaceSelector(namespaces(settings, true))
                .withMatchPolicy("Equivalent")
                .withSideEffects("None")
                .withTimeoutSeconds(settings.timeoutSeconds())
                .withAdmissionReviewVersions("v1")
                .withReinvocationPolicy("Never");
    }

    public static ValidatingWebhookConfiguration validating(WebhookSettings settings, String caBundlePem) {
        List<RuleWithOperations> rules = WorkloadValidator.KINDS.stream()
                .map(kind -> rule(List.of("CREATE", "UPDATE"), kind.group(), kind.version(), kind.plural()))
                .toList();
        var workloads = new ValidatingWebhookBuilder()
                .withName(WORKLOAD_WEBHOOK)
                .withClientConfig(clientConfig(settings, WorkloadValidator.PATH, caBundlePem))
                .withRules(rules)
                .withNamespaceSelector(namespaces(settings, settings.workloadsRequireOptIn()))
                .withObjectSelector(new LabelSelector())
                .withFailurePolicy(settings.workloadFailurePolicy())
                .withMatchPolicy("Equivalent")
                .withSideEffects("None")
                .withTimeoutSeconds(settings.timeoutSeconds())
                .withAdmissionReviewVersions("v1")
                .build();
        return new ValidatingWebhookConfigurationBuilder()
                .withMetadata(metadata(settings))
                .withWebhooks(workloads)
                .build();
    }

    private static ObjectMeta metadata(WebhookSettings settings) {
        return new ObjectMetaBuilder()
                .withName(settings.configurationName())
                .withLabels(Map.of(Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY))
                .build();
    }

    private static WebhookClientConfig clientConfig(WebhookSettings settings, String path, String caBundlePem) {
        return new WebhookClientConfigBuilder()
                .withNewService()
                .withNamespace(settings.namespace())
                .withName(settings.serviceName())
                .withPath(path)
                .withPort(settings.servicePort())
                .endService()
                .withCaBundle(Base64.getEncoder().encodeToString(caBundlePem.getBytes(StandardCharsets.UTF_8)))
                .build();
    }

    private static RuleWithOperations rule(List<String> operations, String group, String version, String resource) {
        return new RuleWithOperationsBuilder()
                .withOperations(operations)
                .withApiGroups(group)
                .withApiVersions(version)
                .withResources(resource)
                .withScope("Namespaced")
                .build();
    }

    private static LabelSelector namespaces(WebhookSettings settings, boolean optIn) {
        List<LabelSelectorRequirement> requirements = new ArrayList<>();
        if (optIn) {
            requirements.add(new LabelSelectorRequirement(settings.namespaceLabel(), "In", List.of("true")));
        }
        requirements.add(new LabelSelectorRequirement(NAMESPACE_NAME_LABEL, "NotIn", excludedNamespaces(settings)));
        return new LabelSelectorBuilder().withMatchExpressions(requirements).build();
    }

    private static LabelSelector notIn(String key, String value) {
        return new LabelSelectorBuilder()
                .withMatchExpressions(new LabelSelectorRequirement(key, "NotIn", List.of(value)))
                .build();
    }
}
