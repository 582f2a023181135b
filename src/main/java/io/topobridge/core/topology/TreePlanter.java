package io.topobridge.core.topology;

import static io.topobridge.core.topology.TreeFindings.count;
import static io.topobridge.core.topology.TreeFindings.examples;
import static io.topobridge.core.topology.TreeFindings.schemeRef;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.LabelScheme.TierSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Plants the tree of one scheme: decides its depth (the dynamic tiers its nodes name, the optional tiers at least
 * half of them carry), reads each node's domain values and puts the node in its domains, leaving out and naming
 * the nodes that cannot sit in the tree.
 */
final class TreePlanter {

    static void plant(LabelScheme scheme, List<NodeInfo> nodes, Forest forest, List<Finding> findings) {
        List<TierSpec> tiers = scheme.tiersUpTo(highestDynamicTier(scheme, nodes));
        List<NodeInfo> kept = new ArrayList<>(nodes.size());
        List<KeyValue[]> values = new ArrayList<>(nodes.size());
        int[] carriers = new int[tiers.size()]; // how many nodes in the tree carry each tier
        for (NodeInfo node : nodes) {
            KeyValue[] resolved = resolveAll(scheme, tiers, node, findings);
            if (resolved != null) {
                kept.add(node);
                values.add(resolved);
                carry(resolved, carriers, 1);
            }
        }
        if (kept.isEmpty()) {
            return;
        }
        boolean[] used = optionalTiers(scheme, tiers, kept, values, carriers, findings);
        grow(forest, scheme, tiers, used, kept, values, findings);
    }

    /** The node's value for every tier, or null (named in a finding) when it lacks a required tier. */
    private static KeyValue[] resolveAll(
            LabelScheme scheme, List<TierSpec> tiers, NodeInfo node, List<Finding> findings) {
        KeyValue[] resolved = new KeyValue[tiers.size()];
        List<String> missing = null;
        for (int i = 0; i < tiers.size(); i++) {
            TierSpec tier = tiers.get(i);
            resolved[i] = resolve(tier, node.labels());
            if (resolved[i] == null && tier.required()) {
                if (missing == null) {
                    missing = new ArrayList<>();
                }
                missing.add(lacking(tier));
            }
        }
        if (missing != null) {
            findings.add(Finding.warning(
                    TopologyReason.MISSING_TIER_LABELS,
                    ObjectRef.node(node.name()),
                    "node carries " + scheme.title() + " labels but lacks " + String.join(", ", missing)
                            + "; left out of the topology tree"));
            return null;
        }
        return resolved;
    }

    private static String lacking(TierSpec tier) {
        return String.join(" or ", tier.keys()) + " (tier " + tier.name() + ")";
    }

    /**
     * Puts every kept node into its domains of the used tiers (an NVLink domain whole, see {@link RailDomains}), then
     * settles an NVLink tier's partitions.
     */
    private static void grow(
            Forest forest,
            LabelScheme scheme,
            List<TierSpec> tiers,
            boolean[] used,
            List<NodeInfo> kept,
            List<KeyValue[]> values,
            List<Finding> findings) {
        int count = tiers.size();
        List<String> usedNames = new ArrayList<>();
        int[] usedIndex = new int[count];
        int depth = 0;
        for (int i = 0; i < count; i++) {
            if (used[i]) {
                usedIndex[depth++] = i;
                usedNames.add(tiers.get(i).name());
            }
        }
        boolean nvlink = depth > 0 && tiers.get(usedIndex[0]).nvlink();
        Tree tree = null;
        RailDomains rails = null;
        // grown a second time, with the NVLink domains that span switches kept whole, when the first tree has any
        do {
            forest.trees.remove(tree);
            rails = tree == null ? null : RailDomains.keepWhole(usedNames, kept, values, usedIndex, depth);
            tree = forest.tree(scheme, usedNames, nvlink);
            for (int n = 0; n < kept.size(); n++) {
                KeyValue[] resolved = values.get(n);
                Domain parent = null;
                for (int level = depth - 1; level >= 0; level--) {
                    parent = tree.domain(parent, level, resolved[usedIndex[level]]);
                }
                parent.nodes.add(kept.get(n).name());
                if (rails != null) {
                    rails.planted(resolved[usedIndex[0]], parent);
                }
                if (nvlink) {
                    // the NVLink partition the node names inside its domain, or null: none named
                    parent.addPartition(firstPresent(
                            LabelSchemes.partitionKeys(resolved[usedIndex[0]].key()),
                            kept.get(n).labels()));
                }
            }
        } while (rails == null && nvlink && depth > 1 && RailDomains.any(tree));
        if (rails != null) {
            tree.rails.addAll(rails.rails());
        }
        if (nvlink) {
            tree.foldOrSplitNvlink(findings);
            cliqueDomainMismatches(kept, values, usedIndex[0], findings);
        }
    }

    /**
     * Decides which tiers the scheme's tree has and leaves out the nodes that cannot sit in it. Required tiers are
     * always in (their nodes were checked before). An optional tier is in while at least half of the nodes still in
     * the tree carry it; the nodes that lack it are then left out, each named with what it lacks, and the others keep
     * the tier: so one node's labels can neither take a tier away from the nodes that carry it nor force one on
     * nodes that lack it. Tiers are decided from the required ones outwards (the finer ones below them nearest
     * first, then those above nearest first); a tier above one that is out is out too, as the tree has no gaps.
     * Removes the left-out nodes from {@code kept} and {@code values}.
     */
    private static boolean[] optionalTiers(
            LabelScheme scheme,
            List<TierSpec> tiers,
            List<NodeInfo> kept,
            List<KeyValue[]> values,
            int[] carriers,
            List<Finding> findings) {
        int count = tiers.size();
        int firstRequired = -1;
        int lastRequired = -1;
        for (int i = 0; i < count; i++) {
            if (tiers.get(i).required()) {
                lastRequired = i;
                if (firstRequired < 0) {
                    firstRequired = i;
                }
            }
        }
        if (firstRequired < 0) {
            firstRequired = count;
            lastRequired = count - 1;
        }
        boolean[] used = new boolean[count];
        List<Integer> order = new ArrayList<>(count);
        for (int i = firstRequired - 1; i >= 0; i--) {
            order.add(i);
        }
        // then the optional tiers between the required ones and above them, nearest first
        for (int i = firstRequired; i < count; i++) {
            if (tiers.get(i).required()) {
                used[i] = true;
            } else {
                order.add(i);
            }
        }
        int total = kept.size();
        boolean[] out = new boolean[total];
        int in = total;
        for (int i : order) {
            boolean gap = i > lastRequired && i > 0 && !used[i - 1];
            used[i] = !gap && carriers[i] > 0 && 2L * carriers[i] >= in;
            for (int n = 0; used[i] && carriers[i] < in && n < total; n++) {
                if (!out[n] && values.get(n)[i] == null) {
                    out[n] = true;
                    in--;
                    carry(values.get(n), carriers, -1);
                }
            }
            if (!used[i] && carriers[i] > 0) {
                findings.add(leftOut(scheme, tiers.get(i), carriers[i], in, kept, values, out, i, gap));
            }
        }
        if (in < total) {
            leaveOutLacking(scheme, tiers, used, out, kept, values, findings);
        }
        return used;
    }

    private static void carry(KeyValue[] row, int[] carriers, int by) {
        for (int i = 0; i < row.length; i++) {
            carriers[i] += row[i] == null ? 0 : by;
        }
    }

    /** Names each node that lacks a kept optional tier and removes it from {@code kept} and {@code values}. */
    private static void leaveOutLacking(
            LabelScheme scheme,
            List<TierSpec> tiers,
            boolean[] used,
            boolean[] out,
            List<NodeInfo> kept,
            List<KeyValue[]> values,
            List<Finding> findings) {
        List<NodeInfo> keep = new ArrayList<>(kept.size());
        List<KeyValue[]> keepValues = new ArrayList<>(kept.size());
        for (int n = 0; n < kept.size(); n++) {
            if (!out[n]) {
                keep.add(kept.get(n));
                keepValues.add(values.get(n));
                continue;
            }
            KeyValue[] row = values.get(n);
            List<String> missing = IntStream.range(0, tiers.size())
                    .filter(i -> used[i] && row[i] == null)
                    .mapToObj(i -> lacking(tiers.get(i)))
                    .toList();
            boolean one = missing.size() == 1;
            findings.add(Finding.warning(
                    TopologyReason.MISSING_TIER_LABELS,
                    ObjectRef.node(kept.get(n).name()),
                    "node carries " + scheme.title() + " labels but lacks " + String.join(" and ", missing)
                            + ", which at least half the nodes of its tree carry: the tree keeps "
                            + (one ? "that tier" : "those tiers") + " for them; left out of the topology tree until it"
                            + " carries " + (one ? "the label" : "the labels")
                            + " (Volcano needs every node of a tree at the same depth)"));
        }
        kept.clear();
        kept.addAll(keep);
        values.clear();
        values.addAll(keepValues);
    }

    /**
     * A GPU clique's UUID is the physical NVLink domain, so all nodes of one UUID must carry the same domain label
     * of their scheme (topograph's domain, or the older accelerator label). The tree follows the scheme's label;
     * the disagreement is reported on every node involved, as nothing tells which side is right.
     */
    private static void cliqueDomainMismatches(
            List<NodeInfo> kept, List<KeyValue[]> values, int nvlinkIndex, List<Finding> findings) {
        Map<String, Map<String, List<Integer>>> byClique = new TreeMap<>();
        for (int n = 0; n < kept.size(); n++) {
            KeyValue domain = values.get(n)[nvlinkIndex];
            if (LabelSchemes.GPU_CLIQUE.equals(domain.key())) {
                continue;
            }
            String clique = kept.get(n).labels().get(LabelSchemes.GPU_CLIQUE);
            if (clique == null || clique.isEmpty()) {
                continue;
            }
            byClique.computeIfAbsent(LabelSchemes.domainValue(LabelSchemes.GPU_CLIQUE, clique), k -> new TreeMap<>())
                    .computeIfAbsent(domain.value(), k -> new ArrayList<>())
                    .add(n);
        }
        for (var clique : byClique.entrySet()) {
            if (clique.getValue().size() < 2) {
                continue;
            }
            List<String> sides = new ArrayList<>();
            for (var side : clique.getValue().entrySet()) {
                List<String> names = side.getValue().stream()
                        .map(i -> kept.get(i).name())
                        .sorted()
                        .toList();
                sides.add(UserText.quote(side.getKey()) + " (" + count(names.size(), "node") + ": " + examples(names)
                        + ")");
            }
            for (List<Integer> side : clique.getValue().values()) {
                for (int i : side) {
                    NodeInfo node = kept.get(i);
                    String key = values.get(i)[nvlinkIndex].key();
                    findings.add(Finding.warning(
                            TopologyReason.CLIQUE_DOMAIN_MISMATCH,
                            ObjectRef.node(node.name()),
                            LabelSchemes.GPU_CLIQUE + "="
                                    + UserText.quote(node.labels().get(LabelSchemes.GPU_CLIQUE))
                                    + " puts the node in NVLink domain " + UserText.quote(clique.getKey())
                                    + ", but its " + key
                                    + " is " + UserText.quote(node.labels().get(key))
                                    + " and the nodes of that NVLink domain carry "
                                    + clique.getValue().size() + " different domain labels: " + String.join(", ", sides)
                                    + "; the labels disagree, the tree follows " + key));
                }
            }
        }
    }

    private static Finding leftOut(
            LabelScheme scheme,
            TierSpec tier,
            int carriers,
            int in,
            List<NodeInfo> kept,
            List<KeyValue[]> values,
            boolean[] out,
            int index,
            boolean gap) {
        String why;
        if (gap) {
            why = "a tier below it is left out";
        } else {
            List<String> carrying = IntStream.range(0, kept.size())
                    .filter(n -> !out[n] && values.get(n)[index] != null)
                    .mapToObj(n -> kept.get(n).name())
                    .sorted()
                    .toList();
            why = "fewer than half of its " + in + " nodes carry it (" + examples(carrying)
                    + "); a tier is kept while at least half do, and then the nodes lacking it are left out";
        }
        return Finding.warning(
                        TopologyReason.TIER_LEFT_OUT,
                        schemeRef(scheme.id()),
                        "tier " + tier.name() + " (" + String.join(" or ", tier.keys()) + ") is carried by "
                                + count(carriers, "node") + " but left out of the " + scheme.title() + " tree because "
                                + why
                                + "; Volcano needs every node of a tree at the same depth")
                .withKey(tier.name());
    }

    private static int highestDynamicTier(LabelScheme scheme, List<NodeInfo> nodes) {
        if (scheme.dynamic() == null) {
            return -1;
        }
        int highest = -1;
        for (NodeInfo node : nodes) {
            for (var label : node.labels().entrySet()) {
                int n = scheme.dynamic().index(label.getKey());
                if (n > highest && !label.getValue().isEmpty()) {
                    highest = n;
                }
            }
        }
        return highest;
    }

    /** An NVLink tier's value is the domain (see {@link LabelSchemes#domainValue}); any other tier's, the value. */
    private static KeyValue resolve(TierSpec tier, Map<String, String> labels) {
        KeyValue kv = firstPresent(tier.keys(), labels);
        return kv == null || !tier.nvlink()
                ? kv
                : new KeyValue(kv.key(), LabelSchemes.domainValue(kv.key(), kv.value()));
    }

    /** The first of {@code keys} the labels give a value (first present wins), or null. */
    private static KeyValue firstPresent(List<String> keys, Map<String, String> labels) {
        for (String key : keys) {
            String value = labels.get(key);
            if (value != null && !value.isEmpty()) {
                return new KeyValue(key, value);
            }
        }
        return null;
    }
}
