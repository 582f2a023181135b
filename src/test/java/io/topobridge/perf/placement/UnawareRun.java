package io.topobridge.perf.placement;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Role;
import io.topobridge.perf.placement.Gangs.Shape;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Topology-unaware gangs, as Volcano users write them without the bridge: the bridge stopped (its HyperNodes kept),
 * each gang a PodGroup with its size and resources only and its pods scheduled by Volcano. The hard tiers it
 * reports are the examples' hand-chosen ones: were they kept by chance?
 */
final class UnawareRun implements PlacementSystem {

    @Override
    public String label() {
        return "unaware";
    }

    @Override
    public String what() {
        return "topology-unaware gangs (bridge stopped)";
    }

    @Override
    public String comparedWith() {
        return null;
    }

    @Override
    public void open(Context context) {
        context.cluster().stopBridge();
    }

    @Override
    public boolean enforcesHardTiers() {
        return false;
    }

    private static String podGroup(Arrival a) {
        return "pg-" + a.gang();
    }

    @Override
    public void arrive(Context context, String ns, Arrival a) {
        client(context).resource(podGroup(ns, a)).create();
        for (Role role : a.shape().roles()) {
            client(context)
                    .resource(GangObjects.deployment(
                            ns,
                            a,
                            role,
                            Map.of(),
                            GangObjects.template(
                                    a,
                                    role,
                                    context.gpuNodes(),
                                    Map.of("scheduling.k8s.io/group-name", podGroup(a)),
                                    "volcano")))
                    .create();
        }
    }

    @Override
    public void depart(Context context, String ns, Arrival a) {
        GangObjects.deleteDeployments(client(context), ns, a);
        client(context)
                .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(ns)
                .withName(podGroup(a))
                .delete();
    }

    @Override
    public Map<String, Integer> hardTiers(Context context, String ns, Arrival a) {
        Map<String, Integer> out = new LinkedHashMap<>();
        Shape s = a.shape();
        if (s.hard()) {
            out.put("", Gangs.TIERS.get(s.tier()));
        }
        if (s.roleTier() != null) {
            s.roles().forEach(r -> out.put(r.name(), Gangs.TIERS.get(s.roleTier())));
        }
        return out;
    }

    /** What a Volcano user writes for a gang without the bridge: its size and resources, no topology. */
    private static GenericKubernetesResource podGroup(String ns, Arrival a) {
        Shape s = a.shape();
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName(podGroup(a))
                .withNamespace(ns)
                .endMetadata()
                .addToAdditionalProperties(
                        "spec",
                        Map.of(
                                "minMember",
                                s.pods(),
                                "queue",
                                "default",
                                "minResources",
                                Map.of(
                                        "cpu",
                                        String.valueOf(4 * s.pods()),
                                        "memory",
                                        (16 * s.pods()) + "Gi",
                                        "nvidia.com/gpu",
                                        String.valueOf(s.gpus()))))
                .build();
    }
}
