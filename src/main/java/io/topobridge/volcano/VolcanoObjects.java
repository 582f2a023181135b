package io.topobridge.volcano;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.volcano.model.PodGroupSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Turns the core's desired objects into the typed resources that are applied and printed. For an adopted
 * PodGroup only the fields the bridge owns there are set, so an apply never claims anything else.
 */
public final class VolcanoObjects {

    public static HyperNode hyperNode(DesiredHyperNode desired) {
        var hyperNode = new HyperNode();
        hyperNode.setApiVersion(VolcanoApi.HYPERNODE_API_VERSION);
        hyperNode.setKind("HyperNode");
        hyperNode.setMetadata(new ObjectMetaBuilder()
                .withName(desired.name())
                .withLabels(desired.labels().isEmpty() ? null : new TreeMap<>(desired.labels()))
                .build());
        hyperNode.setSpec(desired.spec());
        return hyperNode;
    }

    /** The annotations the bridge writes on a PodGroup another controller made: how it chose, where it landed. */
    public static final List<String> ADOPTED_ANNOTATIONS = List.of(
            Topobridge.CHOSEN_TIER,
            Topobridge.CHOSEN_SUBGROUP_TIER,
            Topobridge.ACHIEVED_TIER,
            Topobridge.ACHIEVED_SUBGROUP_TIERS);

    public static PodGroup podGroup(DesiredPodGroup desired) {
        var podGroup = new PodGroup();
        podGroup.setApiVersion(VolcanoApi.PODGROUP_API_VERSION);
        podGroup.setKind("PodGroup");
        var meta = new ObjectMetaBuilder().withNamespace(desired.namespace()).withName(desired.name());
        if (desired.ownership() == DesiredPodGroup.Ownership.OWNED) {
            meta.withLabels(desired.labels().isEmpty() ? null : new TreeMap<>(desired.labels()))
                    .withAnnotations(desired.annotations().isEmpty() ? null : new TreeMap<>(desired.annotations()))
                    .withOwnerReferences(desired.owners().isEmpty() ? null : new ArrayList<>(desired.owners()));
            podGroup.setSpec(desired.spec());
        } else {
            var placement = new TreeMap<>(desired.annotations());
            placement.keySet().retainAll(ADOPTED_ANNOTATIONS);
            meta.withAnnotations(placement.isEmpty() ? null : placement);
            var spec = new PodGroupSpec();
            spec.setNetworkTopology(desired.spec().getNetworkTopology());
            spec.setSubGroupPolicy(desired.spec().getSubGroupPolicy());
            podGroup.setSpec(spec);
        }
        podGroup.setMetadata(meta.build());
        return podGroup;
    }
}
