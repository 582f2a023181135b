package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Pod Security admission on the real API server (the {@code PodSecurity} plugin kube-apiserver enables by default): a
 * namespace labelled to enforce, audit and warn on the {@code restricted} profile, the level OpenShift's
 * {@code restricted-v2} SCC and hardened clusters hold pods to, and pods of a workload's template judged by it.
 */
final class PodSecurity {

    static final String PROFILE = "restricted";
    private static final List<String> MODES = List.of("enforce", "audit", "warn");

    private PodSecurity() {}

    /** Labels {@code namespace} to enforce, audit and warn on the restricted profile (latest version). */
    static void restrict(KubernetesClient admin, String namespace) {
        admin.namespaces().withName(namespace).edit(ns -> {
            for (String mode : MODES) {
                ns.getMetadata().getLabels().put("pod-security.kubernetes.io/" + mode, PROFILE);
                ns.getMetadata().getLabels().put("pod-security.kubernetes.io/" + mode + "-version", "latest");
            }
            return ns;
        });
    }

    /** Removes the labels {@link #restrict} set (the namespace is shared with the fork's other classes). */
    static void release(KubernetesClient admin, String namespace) {
        admin.namespaces().withName(namespace).edit(ns -> {
            ns.getMetadata().getLabels().keySet().removeIf(k -> k.startsWith("pod-security.kubernetes.io/"));
            return ns;
        });
    }

    /**
     * Creates (dry run: admission runs, nothing is stored) a pod from {@code workload}'s pod template in
     * {@code namespace}, as its controller would; throws the API server's refusal.
     */
    static void admit(KubernetesClient admin, String namespace, JsonNode workload, String name) {
        admin.pods()
                .inNamespace(namespace)
                .resource(pod(admin, workload, name))
                .dryRun()
                .create();
    }

    /**
     * The same pod with one rule of the profile broken (its first container may escalate privileges) is refused: the
     * profile is enforced in {@code namespace}, so a pod admitted there met it.
     */
    static void assertEnforced(KubernetesClient admin, String namespace, JsonNode workload) {
        ObjectNode broken = workload.deepCopy();
        ((ObjectNode) broken.path("spec")
                        .path("template")
                        .path("spec")
                        .path("containers")
                        .get(0)
                        .path("securityContext"))
                .put("allowPrivilegeEscalation", true);
        assertThat(catchThrowable(() -> admit(admin, namespace, broken, "escalating")))
                .as("a pod that may escalate privileges")
                .hasMessageContaining("violates PodSecurity \"" + PROFILE + ":latest\"")
                .hasMessageContaining("allowPrivilegeEscalation != false");
    }

    private static Pod pod(KubernetesClient admin, JsonNode workload, String name) {
        PodTemplateSpec template = admin.getKubernetesSerialization()
                .convertValue(workload.path("spec").path("template"), PodTemplateSpec.class);
        return new PodBuilder()
                .withMetadata(template.getMetadata())
                .editMetadata()
                .withName(name)
                .endMetadata()
                .withSpec(template.getSpec())
                .build();
    }
}
