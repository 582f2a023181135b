package io.topobridge.core.topology;

import static io.topobridge.core.topology.TreeFindings.count;
import static io.topobridge.core.topology.TreeFindings.examples;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.UserText;
import io.topobridge.volcano.model.MemberSelector;
import io.topobridge.volcano.model.MemberSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * HyperNodes of other sources that list members of the bridge's tree: such a member gets a second parent, which
 * makes Volcano skip topology-aware jobs, so each overlap is a finding on the other source's HyperNode.
 */
final class ForeignOverlaps {

    static void find(
            Collection<ForeignHyperNode> foreign, Forest forest, Map<String, NodeInfo> byName, List<Finding> findings) {
        if (foreign.isEmpty()) {
            return;
        }
        Set<String> placed = forest.placedNodes();
        Set<String> ours =
                forest.domains().stream().filter(d -> d.alive).map(d -> d.name).collect(Collectors.toSet());
        List<ForeignHyperNode> sorted = new ArrayList<>(foreign);
        sorted.sort(Comparator.comparing(ForeignHyperNode::name));
        for (ForeignHyperNode hn : sorted) {
            if (hn.spec() == null || hn.spec().getMembers() == null) {
                continue;
            }
            Set<String> nodes = new TreeSet<>();
            Set<String> hyperNodes = new TreeSet<>();
            for (MemberSpec member : hn.spec().getMembers()) {
                if (member == null || member.getSelector() == null) {
                    continue;
                }
                boolean nodeMember = member.getType() == MemberSpec.TypeEnum.NODE;
                collect(
                        member.getSelector(),
                        nodeMember ? placed : ours,
                        nodeMember ? byName : null,
                        nodeMember ? nodes : hyperNodes);
            }
            if (!nodes.isEmpty() || !hyperNodes.isEmpty()) {
                findings.add(Finding.warning(
                        TopologyReason.FOREIGN_HYPER_NODE_OVERLAP,
                        TreeFindings.hyperNodeRef(hn.name()),
                        message(hn, nodes, hyperNodes)));
            }
        }
    }

    /**
     * Adds to {@code hits} the candidates the selector picks; a label match is read only for Node members
     * ({@code byName} given).
     */
    private static void collect(
            MemberSelector selector, Set<String> candidates, Map<String, NodeInfo> byName, Set<String> hits) {
        if (selector.getExactMatch() != null
                && candidates.contains(selector.getExactMatch().getName())) {
            hits.add(selector.getExactMatch().getName());
        }
        if (selector.getRegexMatch() != null && selector.getRegexMatch().getPattern() != null) {
            Pattern pattern = compile(selector.getRegexMatch().getPattern());
            if (pattern != null) {
                candidates.stream().filter(n -> pattern.matcher(n).find()).forEach(hits::add);
            }
        }
        if (byName != null && selector.getLabelMatch() != null) {
            LabelSelector labelMatch = selector.getLabelMatch();
            candidates.stream()
                    .filter(n -> selects(labelMatch, byName.get(n).labels()))
                    .forEach(hits::add);
        }
    }

    private static String message(ForeignHyperNode hn, Set<String> nodes, Set<String> hyperNodes) {
        String source = hn.labels().get(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL);
        StringBuilder message = new StringBuilder("HyperNode of ")
                .append(
                        source == null
                                ? "no declared source"
                                : VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL + "=" + UserText.quote(source))
                .append(" covers ");
        if (!nodes.isEmpty()) {
            message.append(
                    count(nodes.size(), "node") + " of topobridge's tree (" + examples(new ArrayList<>(nodes)) + ")");
        }
        if (!hyperNodes.isEmpty()) {
            message.append((nodes.isEmpty() ? "" : " and ") + count(hyperNodes.size(), "HyperNode")
                    + " of topobridge's (" + examples(new ArrayList<>(hyperNodes)) + ")");
        }
        return message.append(": they get a second parent, which makes Volcano skip topology-aware jobs;"
                        + " keep one source (e.g. disable Volcano's label discovery for these labels)")
                .toString();
    }

    private static Pattern compile(String regex) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            return null;
        }
    }

    /** Kubernetes label-selector semantics (an empty selector selects everything). */
    static boolean selects(LabelSelector selector, Map<String, String> labels) {
        if (selector.getMatchLabels() != null) {
            for (var e : selector.getMatchLabels().entrySet()) {
                if (!Objects.equals(labels.get(e.getKey()), e.getValue())) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                List<String> values = r.getValues() == null ? List.of() : r.getValues();
                if (!GangView.Requirement.holds(String.valueOf(r.getOperator()), labels.get(r.getKey()), values)) {
                    return false;
                }
            }
        }
        return true;
    }
}
