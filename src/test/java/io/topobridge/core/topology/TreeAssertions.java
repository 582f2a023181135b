package io.topobridge.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.volcano.model.MemberSpec;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What every builder output must be, whatever the input: a valid, uniform-depth Volcano tree. */
final class TreeAssertions {

    private TreeAssertions() {}

    /**
     * Checks names, members, labels, single parents, no cycles and uniform depth per tree; returns each node's
     * tier-1 HyperNode and each HyperNode's parent so callers can check groups.
     */
    static Tree assertValidTree(TopologyResult result, String context) {
        Map<String, DesiredHyperNode> byName = new HashMap<>();
        for (DesiredHyperNode hn : result.hyperNodes()) {
            assertThat(byName.put(hn.name(), hn))
                    .as("%s: duplicate HyperNode name %s", context, hn.name())
                    .isNull();
            assertThat(HyperNodeNames.matchable(hn.name()))
                    .as("%s: name %s", context, hn.name())
                    .isTrue();
            assertThat(hn.labels())
                    .as(context)
                    .containsEntry("volcano.sh/network-topology-source", "topobridge")
                    .containsEntry("app.kubernetes.io/managed-by", "topobridge");
            assertThat(hn.spec().getTierName()).as(context).isNotBlank();
            assertThat(hn.spec().getMembers())
                    .as("%s: members of %s", context, hn.name())
                    .isNotEmpty();
        }
        Map<String, String> nodeParent = new HashMap<>();
        Map<String, String> parent = new HashMap<>();
        for (DesiredHyperNode hn : result.hyperNodes()) {
            int tier = hn.spec().getTier();
            assertThat(tier).as(context).isGreaterThanOrEqualTo(1);
            for (MemberSpec m : hn.spec().getMembers()) {
                assertThat(m.getSelector().getRegexMatch()).as(context).isNull();
                assertThat(m.getSelector().getLabelMatch()).as(context).isNull();
                String member = m.getSelector().getExactMatch().getName();
                assertThat(HyperNodeNames.matchable(member))
                        .as("%s: member %s", context, member)
                        .isTrue();
                if (tier == 1) {
                    assertThat(m.getType()).as(context).isEqualTo(MemberSpec.TypeEnum.NODE);
                    assertThat(nodeParent.put(member, hn.name()))
                            .as("%s: node %s has a second parent", context, member)
                            .isNull();
                } else {
                    assertThat(m.getType()).as(context).isEqualTo(MemberSpec.TypeEnum.HYPER_NODE);
                    DesiredHyperNode child = byName.get(member);
                    assertThat(child)
                            .as("%s: member %s of %s exists", context, member, hn.name())
                            .isNotNull();
                    assertThat(child.spec().getTier())
                            .as("%s: child of %s is one tier below", context, hn.name())
                            .isEqualTo(tier - 1);
                    assertThat(parent.put(member, hn.name()))
                            .as("%s: %s has a second parent", context, member)
                            .isNull();
                }
            }
        }
        // uniform depth: all nodes under one top HyperNode reach it through the same number of tiers
        Map<String, Integer> depthOfTop = new HashMap<>();
        for (var e : nodeParent.entrySet()) {
            String at = e.getValue();
            int hops = 1;
            Set<String> seen = new HashSet<>();
            while (parent.containsKey(at)) {
                assertThat(seen.add(at)).as("%s: cycle through %s", context, at).isTrue();
                at = parent.get(at);
                hops++;
            }
            assertThat(byName.get(at).spec().getTier())
                    .as("%s: node %s reaches its top in tier order", context, e.getKey())
                    .isEqualTo(hops);
            Integer before = depthOfTop.put(at, hops);
            assertThat(before == null || before == hops)
                    .as("%s: mixed depth under %s", context, at)
                    .isTrue();
        }
        return new Tree(nodeParent, parent, byName);
    }

    /** The tree as maps: node to its tier-1 HyperNode, HyperNode to its parent. */
    record Tree(Map<String, String> nodeParent, Map<String, String> parent, Map<String, DesiredHyperNode> byName) {

        /** The node's ancestor at tier {@code k} (1-based), or null above the top. */
        String ancestor(String node, int k) {
            String at = nodeParent.get(node);
            for (int i = 1; i < k && at != null; i++) {
                at = parent.get(at);
            }
            return at;
        }

        List<String> tierNames() {
            return byName.values().stream()
                    .map(h -> h.spec().getTier() + "=" + h.spec().getTierName())
                    .distinct()
                    .sorted()
                    .toList();
        }
    }
}
