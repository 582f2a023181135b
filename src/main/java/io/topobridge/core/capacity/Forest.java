package io.topobridge.core.capacity;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every HyperNode of the cluster, all sources together, as the scheduler joins them into one forest: who is whose
 * parent, which nodes lie under a HyperNode, and what breaks the forest for Volcano (a node or HyperNode with two
 * parents, a cycle, a node member above tier 1 or a child not exactly one tier below its parent).
 */
public final class Forest {

    /** Something about the forest that Volcano cannot schedule topology-aware jobs with. */
    public record Problem(String kind, String subject, String message) {}

    private final Map<String, HyperNodeView> byName = new TreeMap<>();
    private final Map<String, List<String>> nodeParents = new HashMap<>();
    private final Map<String, List<String>> hyperNodeParents = new HashMap<>();
    private final Map<String, Set<String>> nodesUnder = new HashMap<>();

    private Forest(Collection<HyperNodeView> hyperNodes) {
        for (HyperNodeView h : hyperNodes) {
            byName.put(h.name(), h);
        }
        for (HyperNodeView h : byName.values()) {
            h.nodes()
                    .forEach(n -> nodeParents
                            .computeIfAbsent(n, k -> new ArrayList<>())
                            .add(h.name()));
            h.hyperNodes()
                    .forEach(c -> hyperNodeParents
                            .computeIfAbsent(c, k -> new ArrayList<>())
                            .add(h.name()));
        }
    }

    public static Forest of(Collection<HyperNodeView> hyperNodes) {
        return new Forest(hyperNodes);
    }

    public static final Forest EMPTY = new Forest(List.of());

    public Collection<HyperNodeView> hyperNodes() {
        return byName.values();
    }

    public Optional<HyperNodeView> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The HyperNode a node belongs to (the first, where it wrongly belongs to several). */
    public Optional<String> parentOfNode(String node) {
        List<String> parents = nodeParents.get(node);
        return parents == null ? Optional.empty() : Optional.of(parents.get(0));
    }

    /** The HyperNode above a HyperNode (the first, where there are several). */
    public Optional<String> parentOf(String hyperNode) {
        List<String> parents = hyperNodeParents.get(hyperNode);
        return parents == null ? Optional.empty() : Optional.of(parents.get(0));
    }

    public boolean placed(String node) {
        return nodeParents.containsKey(node);
    }

    /** The HyperNodes above a node, lowest first (a cycle is cut where it closes). */
    public List<HyperNodeView> ancestors(String node) {
        List<HyperNodeView> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Optional<String> at = parentOfNode(node);
        while (at.isPresent() && seen.add(at.get()) && byName.containsKey(at.get())) {
            out.add(byName.get(at.get()));
            at = parentOf(at.get());
        }
        return out;
    }

    /** Every node under a HyperNode, at any depth. */
    public Set<String> nodesUnder(String hyperNode) {
        return nodesUnder.computeIfAbsent(hyperNode, h -> {
            Set<String> out = new TreeSet<>();
            collect(h, out, new HashSet<>());
            return Set.copyOf(out);
        });
    }

    private void collect(String hyperNode, Set<String> out, Set<String> seen) {
        HyperNodeView h = byName.get(hyperNode);
        if (h == null || !seen.add(hyperNode)) {
            return;
        }
        out.addAll(h.nodes());
        h.hyperNodes().forEach(c -> collect(c, out, seen));
    }

    /** The lowest HyperNode holding every one of {@code nodes}; empty when none does (or a node is in no tree). */
    public Optional<HyperNodeView> lowestCommon(Collection<String> nodes) {
        Set<String> distinct = new LinkedHashSet<>(nodes);
        if (distinct.isEmpty()) {
            return Optional.empty();
        }
        for (HyperNodeView candidate : ancestors(distinct.iterator().next())) {
            if (nodesUnder(candidate.name()).containsAll(distinct)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Tier numbers with their names (the first name seen where sources disagree). */
    public Map<Integer, String> tiers() {
        Map<Integer, String> out = new TreeMap<>();
        byName.values().forEach(h -> out.merge(h.tier(), h.tierName(), (a, b) -> a.isEmpty() ? b : a));
        return out;
    }

    public List<HyperNodeView> atTier(int tier) {
        return byName.values().stream().filter(h -> h.tier() == tier).toList();
    }

    /** What keeps Volcano from scheduling topology-aware jobs, sorted by kind and subject. */
    public List<Problem> problems() {
        List<Problem> out = new ArrayList<>();
        twoParents(out, "Node", "node", nodeParents);
        twoParents(out, "HyperNode", "HyperNode", hyperNodeParents);
        Set<String> reported = new HashSet<>();
        for (String start : byName.keySet()) {
            List<String> path = new ArrayList<>();
            String at = start;
            while (at != null && !path.contains(at)) {
                path.add(at);
                at = parentOf(at).orElse(null);
            }
            if (at != null) {
                List<String> cycle = new ArrayList<>(path.subList(path.indexOf(at), path.size()));
                if (reported.addAll(cycle)) {
                    cycle.add(at);
                    out.add(new Problem(
                            "cycle", "HyperNode/" + at, "HyperNodes form a cycle: " + String.join(" -> ", cycle)));
                }
            }
        }
        for (HyperNodeView h : byName.values()) {
            if (!h.nodes().isEmpty() && h.tier() != 1) {
                out.add(new Problem(
                        "mixed-depth",
                        "HyperNode/" + h.name(),
                        "HyperNode " + h.name() + " at " + h.tierLabel()
                                + " has Node members; nodes belong at tier 1 so every tree has one depth"));
            }
            for (String child : h.hyperNodes()) {
                HyperNodeView c = byName.get(child);
                if (c != null && c.tier() != h.tier() - 1) {
                    out.add(new Problem(
                            "mixed-depth",
                            "HyperNode/" + child,
                            "HyperNode " + child + " at "
                                    + c.tierLabel() + " is a member of " + h.name() + " at " + h.tierLabel()
                                    + "; a member must be exactly one tier below"));
                }
            }
        }
        return out;
    }

    private void twoParents(List<Problem> out, String kind, String noun, Map<String, List<String>> parentsOf) {
        new TreeMap<>(parentsOf).forEach((child, parents) -> {
            if (parents.size() > 1) {
                out.add(new Problem(
                        "two-parents",
                        kind + "/" + child,
                        noun + " " + child + " is a member of " + parents.size() + " HyperNodes: "
                                + describe(parents)));
            }
        });
    }

    private String describe(List<String> names) {
        return names.stream()
                .map(n -> n
                        + Optional.ofNullable(byName.get(n))
                                .filter(h -> !h.source().isEmpty())
                                .map(h -> " (source " + h.source() + ")")
                                .orElse(""))
                .collect(Collectors.joining(", "));
    }
}
