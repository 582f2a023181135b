package io.topobridge.perf.placement;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.NativeTasCluster;
import io.topobridge.e2e.NativeTasCluster.Group;
import io.topobridge.e2e.Nodes;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Role;
import io.topobridge.perf.placement.Gangs.Shape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes' own topology-aware workload scheduling (KEP-5732, kube-scheduler 1.37 with its gates on), on the side
 * cluster of {@link NativeTasCluster} holding the same nodes, names and labels as the tier's cluster: each gang a
 * {@code Workload} and a gang {@code PodGroup} whose topology constraint is the node label of its tier; a
 * prefill/decode gang a {@code CompositePodGroup} on the label of its tier with one child {@code PodGroup} per role on
 * the label of the roles' tier. The native API has one form of constraint, required: a soft tier (the {@code ds}
 * shape's leaf) is written required too, so such a gang waits for a leaf with room instead of spreading. The
 * examples' labels name no NVLink domain (a rack, of which a clique is a partition): a tier {@code nvlink-domain}
 * cannot be asked for (no shape of the benchmark asks for it). The hard tiers a gang claims are the constraints it
 * was given.
 *
 * <p>Runs by default and always under {@code -Pbench}; {@code -Dtopobridge.e2e.nativeTas=false} leaves it out (its
 * Kubernetes takes about 5 minutes to build cold).
 */
final class NativeRun implements PlacementSystem {

    /** The node label of each tier of the example tree; the NVLink domain has none. */
    static final Map<String, String> KEYS = Map.of(
            "nvlink", "nvidia.com/gpu.clique",
            "leaf", "fabric.topograph.run/tier-0",
            "spine", "fabric.topograph.run/tier-1");

    private KubernetesClient side;
    /** The nodes this run made in the side cluster, which it deletes when it closes. */
    private final List<String> mirrored = new ArrayList<>();

    /** Whether the run is on ({@code topobridge.e2e.nativeTas}, true unless cleared). */
    static boolean chosen() {
        return Boolean.getBoolean("topobridge.e2e.nativeTas");
    }

    @Override
    public String label() {
        return "native";
    }

    @Override
    public String what() {
        return "Kubernetes' own topology-aware scheduling (kube-scheduler " + NativeTasCluster.MINOR
                + " on a side cluster with the same nodes): each gang a Workload and PodGroup with a required topology"
                + " key for its tier, prefill/decode gangs a CompositePodGroup on the leaf key with a PodGroup per role"
                + " on the NVLink-partition key; the API has no preferred form, so ds's soft leaf is written required,"
                + " and no label names an NVLink domain";
    }

    @Override
    public String comparedWith() {
        return "hand";
    }

    @Override
    public void open(Context context) {
        side = NativeTasCluster.get().client();
        mirrorNodes(context.cluster().client(), side);
    }

    /**
     * Deletes the nodes it mirrored: the side cluster outlives the run, and {@code NativeTasE2E}, later on the same
     * fork, counts on its own example nodes alone (a wide-EP rack's 18-tray partition would take its 10-pod gang).
     */
    @Override
    public void close() {
        mirrored.forEach(name -> side.nodes().withName(name).delete());
        mirrored.clear();
    }

    @Override
    public KubernetesClient client(Context context) {
        return side;
    }

    /** Every GPU node of the tier's cluster that the side cluster lacks, with its labels and capacity. */
    private void mirrorNodes(KubernetesClient from, KubernetesClient to) {
        for (Node n :
                from.nodes().withLabel("nvidia.com/gpu.present", "true").list().getItems()) {
            if (to.nodes().withName(n.getMetadata().getName()).get() != null) {
                continue;
            }
            Nodes.create(
                    to,
                    new NodeBuilder()
                            .withNewMetadata()
                            .withName(n.getMetadata().getName())
                            .withLabels(n.getMetadata().getLabels())
                            .endMetadata()
                            .withNewStatus()
                            .withCapacity(n.getStatus().getCapacity())
                            .withAllocatable(n.getStatus().getAllocatable())
                            .endStatus()
                            .build());
            mirrored.add(n.getMetadata().getName());
        }
    }

    @Override
    public void arrive(Context context, String ns, Arrival a) {
        Shape s = a.shape();
        List<Group> groups = groups(s);
        String gang = a.gang();
        side.resource(NativeTasCluster.workload(ns, gang, groups, s.prefillDecode() ? KEYS.get(s.tier()) : null))
                .create();
        String parent = null;
        if (s.prefillDecode()) {
            side.resource(NativeTasCluster.compositePodGroup(ns, gang, groups.size(), KEYS.get(s.tier())))
                    .create();
            parent = gang;
        }
        for (Group g : groups) {
            side.resource(NativeTasCluster.podGroup(ns, gang, g, parent)).create();
        }
        for (int i = 0; i < s.roles().size(); i++) {
            Role role = s.roles().get(i);
            PodTemplateSpec template = GangObjects.template(a, role, context.gpuNodes(), Map.of(), null);
            NativeTasCluster.joinGroup(template.getSpec(), NativeTasCluster.podGroupName(gang, groups.get(i)));
            side.resource(GangObjects.deployment(ns, a, role, Map.of(), template))
                    .create();
        }
    }

    /** One group per role: the gang's tier for a single role, the roles' tier under a composite group. */
    static List<Group> groups(Shape s) {
        String key = KEYS.get(s.prefillDecode() ? s.roleTier() : s.tier());
        return s.roles().stream()
                .map(r -> new Group(r.name(), r.replicas(), key))
                .toList();
    }

    @Override
    public void depart(Context context, String ns, Arrival a) {
        GangObjects.deleteDeployments(side, ns, a);
        NativeTasCluster.deleteGroups(side, ns, a.gang());
    }

    @Override
    public Map<String, Integer> hardTiers(Context context, String ns, Arrival a) {
        Shape s = a.shape();
        Map<String, Integer> out = new LinkedHashMap<>();
        out.put("", Gangs.TIERS.get(s.tier()));
        if (s.prefillDecode() && s.roleTier() != null) {
            s.roles().forEach(r -> out.put(r.name(), Gangs.TIERS.get(s.roleTier())));
        }
        return out;
    }
}
