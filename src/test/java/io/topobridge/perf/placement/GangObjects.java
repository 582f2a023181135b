package io.topobridge.perf.placement;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Role;
import io.topobridge.testing.PodTemplates;
import java.util.List;
import java.util.Map;

/**
 * The objects of one gang's role that every run shares: the pod template (the benchmark's labels, the GPUs of the
 * role, only the example GPU nodes) and the Deployment of the role.
 */
final class GangObjects {

    private GangObjects() {}

    /** The Deployment (or, for bare pods, the pod-name stem) of one role of the gang. */
    static String name(Arrival a, Role role) {
        return a.shape().prefillDecode() ? a.gang() + "-" + role.name() : a.gang();
    }

    /**
     * The pod template of one role: labelled with the gang and role, {@code annotations} on the pod, scheduled by
     * {@code schedulerName} (null: the default scheduler) onto the example GPU nodes only.
     */
    static PodTemplateSpec template(
            Arrival a, Role role, List<String> gpuNodes, Map<String, String> annotations, String schedulerName) {
        return new PodTemplateSpecBuilder()
                .withNewMetadata()
                .addToLabels("app", name(a, role))
                .addToLabels(PlacementBenchmark.GANG_LABEL, a.gang())
                .addToLabels(PlacementBenchmark.ROLE_LABEL, role.name())
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName(schedulerName)
                .withTerminationGracePeriodSeconds(0L)
                .withNewAffinity()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("kubernetes.io/hostname")
                .withOperator("In")
                .withValues(gpuNodes)
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .endAffinity()
                .addToContainers(PodTemplates.gpuEngine(role.gpus()))
                .endSpec()
                .build();
    }

    /** The Deployment of one role, {@code annotations} on the Deployment itself, {@code template} its pods. */
    static Deployment deployment(
            String ns, Arrival a, Role role, Map<String, String> annotations, PodTemplateSpec template) {
        String name = name(a, role);
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .addToLabels(PlacementBenchmark.GANG_LABEL, a.gang())
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withReplicas(role.replicas())
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withTemplate(template)
                .endSpec()
                .build();
    }

    /** Deletes the gang's Deployments. */
    static void deleteDeployments(io.fabric8.kubernetes.client.KubernetesClient client, String ns, Arrival a) {
        client.apps()
                .deployments()
                .inNamespace(ns)
                .withLabel(PlacementBenchmark.GANG_LABEL, a.gang())
                .delete();
    }
}
