package io.topobridge.core.capacity;

import io.topobridge.core.VolcanoApi;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A HyperNode as the cluster holds it, of any source (the bridge's, Volcano's label discovery, by hand): its tier,
 * tier name, source label and its members by {@code exactMatch} (other selectors cannot be followed without the nodes'
 * labels).
 */
public record HyperNodeView(
        String name, int tier, String tierName, String source, List<String> nodes, List<String> hyperNodes) {

    public HyperNodeView {
        Objects.requireNonNull(name, "name");
        tierName = tierName == null ? "" : tierName;
        source = source == null ? "" : source;
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        hyperNodes = hyperNodes == null ? List.of() : List.copyOf(hyperNodes);
    }

    public static HyperNodeView of(String name, Map<String, String> labels, HyperNodeSpec spec) {
        List<String> nodeMembers = new ArrayList<>();
        List<String> hyperNodeMembers = new ArrayList<>();
        if (spec != null && spec.getMembers() != null) {
            for (MemberSpec m : spec.getMembers()) {
                if (m.getSelector() != null && m.getSelector().getExactMatch() != null) {
                    (m.getType() == MemberSpec.TypeEnum.NODE ? nodeMembers : hyperNodeMembers)
                            .add(m.getSelector().getExactMatch().getName());
                }
            }
        }
        return new HyperNodeView(
                name,
                spec == null || spec.getTier() == null ? 0 : spec.getTier(),
                spec == null ? null : spec.getTierName(),
                labels == null ? null : labels.get(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL),
                nodeMembers,
                hyperNodeMembers);
    }

    /** {@code tier N (name)} or {@code tier N}. */
    public String tierLabel() {
        return "tier " + tier + (tierName.isEmpty() ? "" : " (" + tierName + ")");
    }
}
