package io.topobridge.core.topology;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Which of the configured label schemes each node carries (the first that matches), leaving out the nodes whose
 * names cannot be HyperNode members, and saying so when no node carries any scheme.
 */
final class SchemeDetection {

    private final TopologySettings settings;
    private final List<LabelScheme> schemes;

    SchemeDetection(TopologySettings settings) {
        this.settings = settings;
        this.schemes = settings.schemes();
    }

    boolean reads(String key) {
        return schemes.stream().anyMatch(s -> s.reads(key));
    }

    /** The nodes of each scheme, in the order of the schemes (a scheme no node carries has an empty list). */
    Map<LabelScheme, List<NodeInfo>> sort(Collection<NodeInfo> nodes, List<Finding> findings) {
        Map<LabelScheme, List<NodeInfo>> members = new LinkedHashMap<>();
        schemes.forEach(s -> members.put(s, new ArrayList<>()));
        int carrying = 0;
        for (NodeInfo node : nodes) {
            LabelScheme scheme = schemeOf(node.labels());
            if (scheme == null) {
                continue;
            }
            carrying++;
            if (!HyperNodeNames.matchable(node.name())) {
                findings.add(Finding.warning(
                        TopologyReason.UNMATCHABLE_NODE_NAME,
                        ObjectRef.node(node.name()),
                        "node carries " + scheme.title()
                                + " labels but its name cannot be a HyperNode exactMatch member"
                                + " (at most " + HyperNodeNames.MAX_LENGTH
                                + " lower-case letters, digits, '-' and '.');"
                                + " left out of the topology tree"));
                continue;
            }
            members.get(scheme).add(node);
        }
        if (carrying == 0 && !nodes.isEmpty()) {
            findings.add(noMatch(nodes.size()));
        }
        return members;
    }

    private LabelScheme schemeOf(Map<String, String> labels) {
        for (LabelScheme scheme : schemes) {
            if (scheme.carriedBy(labels)) {
                return scheme;
            }
        }
        return null;
    }

    private Finding noMatch(int nodeCount) {
        List<String> keys = new ArrayList<>();
        schemes.forEach(s -> {
            keys.addAll(s.carriers());
            if (s.dynamic() != null) {
                keys.add(s.dynamic().prefix() + "N");
            }
        });
        String keyList = keys.stream().distinct().collect(Collectors.joining(", "));
        if (settings.custom()) {
            return Finding.warning(
                    TopologyReason.NO_MATCHING_NODES,
                    TreeFindings.schemeRef("tiers"),
                    "the configured tiers match none of the " + nodeCount + " nodes: none carries " + keyList);
        }
        if (TopologySettings.AUTO.equals(settings.preset())) {
            return Finding.info(
                    TopologyReason.NO_MATCHING_NODES,
                    TreeFindings.schemeRef(TopologySettings.AUTO),
                    "none of the " + nodeCount + " nodes carries topology labels of a known scheme ("
                            + schemes.stream().map(LabelScheme::id).collect(Collectors.joining(", "))
                            + "): no HyperNodes are built");
        }
        return Finding.warning(
                TopologyReason.NO_MATCHING_NODES,
                TreeFindings.schemeRef(settings.preset()),
                "preset '" + settings.preset() + "' matches none of the " + nodeCount + " nodes: none carries "
                        + keyList);
    }
}
