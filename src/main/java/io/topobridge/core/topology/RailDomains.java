package io.topobridge.core.topology;

import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * NVLink domains whose nodes hang off different switches (a rail-cabled NVL72 rack whose trays sit under two leaves)
 * stay whole: the domain is the unit a tensor-parallel or wide expert-parallel gang needs, so it is one HyperNode,
 * hung from the lowest tier whose one domain holds all its nodes (or at the top of the tree when none does).
 *
 * <p>The tiers it skips get a pass-through HyperNode each, holding only that domain. Volcano itself would take a
 * tier-1 HyperNode listed straight by a tier-3 one (its search walks children whatever their tier), but it scores
 * nodes for bin-packing tier by tier, counting a node in no HyperNode of a tier as free there, and the bridge's own
 * capacity and {@code auto} tiers read every node's domain at every tier; so the tree keeps every node at the same
 * depth, as the design requires. The pass-through holds no other leaf's nodes, so a gang at the skipped tier lands
 * in the domain alone or in one real switch's HyperNode, never in both.
 */
final class RailDomains {

    /**
     * One domain kept whole: the tier whose domains its nodes hang off at the top of what it skips, each node's
     * domain there, and its planted domain once the tree is grown.
     */
    static final class Rail {
        final String sideTier;
        final Map<String, String> sideOf;
        Domain planted;

        Rail(String sideTier, Map<String, String> sideOf) {
            this.sideTier = sideTier;
            this.sideOf = Map.copyOf(sideOf);
        }

        /** {@code leaf "l1" (9 nodes)} for each switch the domain's nodes still in the tree hang off, sorted. */
        List<String> sides() {
            Map<String, Integer> counts = new TreeMap<>();
            for (String node : nodesIn(planted)) {
                counts.merge(sideOf.get(node), 1, Integer::sum);
            }
            return counts.entrySet().stream()
                    .map(e -> sideTier + " " + UserText.quote(e.getKey()) + " ("
                            + TreeFindings.count(e.getValue(), "node") + ")")
                    .toList();
        }

        private static List<String> nodesIn(Domain d) {
            if (d.children.isEmpty()) {
                return d.nodes;
            }
            List<String> out = new ArrayList<>();
            d.children.values().forEach(c -> out.addAll(nodesIn(c)));
            return out;
        }
    }

    private final Map<KeyValue, Rail> byDomain;

    private RailDomains(Map<KeyValue, Rail> byDomain) {
        this.byDomain = byDomain;
    }

    /** Whether a grown tree has an NVLink domain under two parents (its nodes hang off different switches). */
    static boolean any(Tree tree) {
        Set<KeyValue> seen = new HashSet<>();
        return tree.all.stream().anyMatch(d -> d.level == 0 && !seen.add(d.kv));
    }

    /**
     * Finds the NVLink domains (level 0 of {@code used}) whose nodes differ in their parent and rewrites those nodes'
     * values at the levels below the lowest common one to the domain's own pass-through value, so growing the tree
     * makes one chain for the domain. {@code used[level]} is the index into each node's values of that level.
     */
    static RailDomains keepWhole(
            List<String> tierNames, List<NodeInfo> nodes, List<KeyValue[]> values, int[] used, int depth) {
        // per domain: its first row, and the lowest level all its rows share with that one (1: all but the domain)
        Map<KeyValue, int[]> firstAndCommon = new HashMap<>();
        for (int n = 0; n < values.size(); n++) {
            KeyValue[] row = values.get(n);
            int[] seen = firstAndCommon.putIfAbsent(row[used[0]], new int[] {n, 1});
            for (int level = depth - 1; seen != null && level >= seen[1]; level--) {
                if (!row[used[level]].equals(values.get(seen[0])[used[level]])) {
                    seen[1] = level + 1;
                }
            }
        }
        Map<KeyValue, List<Integer>> members = new LinkedHashMap<>();
        for (int n = 0; n < values.size(); n++) {
            if (firstAndCommon.get(values.get(n)[used[0]])[1] > 1) {
                members.computeIfAbsent(values.get(n)[used[0]], k -> new ArrayList<>())
                        .add(n);
            }
        }
        Map<KeyValue, Rail> rails = new HashMap<>();
        for (var entry : members.entrySet()) {
            int common = firstAndCommon.get(entry.getKey())[1];
            Map<String, String> sideOf = new HashMap<>();
            for (int n : entry.getValue()) {
                sideOf.put(nodes.get(n).name(), values.get(n)[used[common - 1]].value());
            }
            rails.put(entry.getKey(), new Rail(tierNames.get(common - 1), sideOf));
            for (int n : entry.getValue()) {
                for (int level = 1; level < common; level++) {
                    values.get(n)[used[level]] = entry.getKey();
                }
            }
        }
        return new RailDomains(rails);
    }

    /** Notes the domain a node was put in; a rail's domain marks the pass-through HyperNodes above it. */
    void planted(KeyValue domainValue, Domain domain) {
        Rail rail = byDomain.get(domainValue);
        if (rail == null || rail.planted != null) {
            return;
        }
        rail.planted = domain;
        for (Domain up = domain.parent; up != null && up.kv.equals(domainValue); up = up.parent) {
            up.passThrough = true;
        }
    }

    List<Rail> rails() {
        return List.copyOf(byDomain.values());
    }
}
