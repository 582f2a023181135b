package io.topobridge.core.topology;

import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The findings about a built forest as a whole (a value under several parents, an NVLink partition in two domains,
 * an NVLink domain kept whole across switches, a tier with one domain, a GPU node in no tree), and the wording every
 * topology finding shares.
 */
final class TreeFindings {

    /** How many names a finding lists before it says "and N more". */
    static final int EXAMPLES = 5;

    static ObjectRef schemeRef(String id) {
        return ObjectRef.cluster("TopologyScheme", id);
    }

    static ObjectRef hyperNodeRef(String name) {
        return new ObjectRef(VolcanoApi.HYPERNODE_API_VERSION, "HyperNode", null, name, null);
    }

    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    static String examples(List<String> names) {
        String shown = String.join(", ", names.subList(0, Math.min(EXAMPLES, names.size())));
        return names.size() > EXAMPLES ? shown + " and " + (names.size() - EXAMPLES) + " more" : shown;
    }

    /** GPU nodes that no HyperNode (the bridge's or another source's) lists: hard-topology gangs never get them. */
    static void gpuNodesOutside(
            Collection<NodeInfo> nodes, Forest forest, Collection<ForeignHyperNode> foreign, List<Finding> findings) {
        // each node is planted at most once: when every one is, none is outside (and the names need no set)
        if (forest.domains().stream()
                        .filter(d -> d.alive && d.level == 0)
                        .mapToLong(d -> d.nodes.size())
                        .sum()
                == nodes.size()) {
            return;
        }
        Set<String> placed = forest.placedNodes();
        foreign.forEach(
                f -> placed.addAll(HyperNodeView.of(f.name(), null, f.spec()).nodes()));
        for (NodeInfo node : nodes) {
            if (node.gpu() && !placed.contains(node.name())) {
                findings.add(Finding.warning(
                        TopologyReason.GPU_NODE_OUTSIDE_TOPOLOGY,
                        ObjectRef.node(node.name()),
                        "GPU node is in no topology tree (it carries no complete label scheme the tiers read): a gang"
                                + " with a hard highest tier can never use it"));
            }
        }
    }

    /**
     * A value under several parents: never merged (identity is the path), but its nodes disagree. NVLink
     * partitions are left to {@link #partitionConflicts}, which can say more.
     */
    static void parentConflicts(Forest forest, List<Finding> findings) {
        Map<KeyValue, List<Domain>> byValue = new HashMap<>();
        for (Domain d : forest.domains()) {
            if (d.alive && !d.passThrough && !(d.tree.nvlink && d.level == 0)) {
                byValue.computeIfAbsent(d.kv, k -> new ArrayList<>()).add(d);
            }
        }
        for (List<Domain> same : byValue.values()) {
            if (same.size() < 2) {
                continue;
            }
            same.sort(Comparator.comparing(d -> d.name));
            for (Domain d : same) {
                findings.add(Finding.warning(
                        TopologyReason.DOMAIN_PARENT_CONFLICT,
                        hyperNodeRef(d.name),
                        d.describe() + " (label " + UserText.identifier(d.kv.key()) + ") is " + where(d)
                                + " here but also "
                                + examples(elsewhere(same, d, TreeFindings::where))
                                + "; its nodes disagree on their parent, so it is kept as "
                                + same.size() + " separate HyperNodes"));
            }
        }
    }

    /**
     * One NVLink partition in several HyperNodes of a tree: under two NVLink domains (the labels disagree on its
     * domain). Its nodes stay split, so a gang asking for {@code nvlink} never spans the pieces. (A domain whose
     * nodes sit under several switches is kept whole, see {@link #railDomains}, so its partitions are never split.)
     */
    static void partitionConflicts(Forest forest, List<Finding> findings) {
        for (Tree tree : forest.trees) {
            if (!tree.nvlink) {
                continue;
            }
            Map<List<KeyValue>, List<Domain>> byPartition = new HashMap<>();
            for (Domain d : tree.all) {
                if (d.alive && d.level == 0) {
                    byPartition
                            .computeIfAbsent(partitionId(d), k -> new ArrayList<>())
                            .add(d);
                }
            }
            for (List<Domain> same : byPartition.values()) {
                if (same.size() > 1) {
                    partitionConflict(same, findings);
                }
            }
        }
    }

    /**
     * An NVLink domain kept whole though its nodes hang off different switches (a rail-cabled rack): on its
     * HyperNode, where it hangs, the switches its nodes sit under and the tiers it skips.
     */
    static void railDomains(Forest forest, List<Finding> findings) {
        for (Tree tree : forest.trees) {
            for (RailDomains.Rail rail : tree.rails) {
                Domain d = rail.planted;
                if (d == null || !d.alive) {
                    continue;
                }
                List<String> skipped = new ArrayList<>();
                List<String> passThroughs = new ArrayList<>();
                Domain top = d;
                for (Domain up = d.parent; up != null && up.passThrough; up = up.parent) {
                    skipped.add(up.tierName());
                    passThroughs.add(up.name);
                    top = up;
                }
                List<String> sides = rail.sides();
                String first = skipped.get(0);
                findings.add(Finding.warning(
                        TopologyReason.PARTITION_SPANS_LEAVES,
                        hyperNodeRef(d.name),
                        "NVLink domain " + UserText.quote(d.kv.value()) + " (label " + d.kv.key() + ") has nodes under "
                                + examples(sides) + ": kept whole as one HyperNode and hung "
                                + where(top)
                                + "; it skips tier" + (skipped.size() == 1 ? " " : "s ") + String.join(", ", skipped)
                                + ", where a HyperNode of its own holds it (" + String.join(", ", passThroughs)
                                + "), so a gang asking for " + d.tierName() + " gets the whole domain and a gang"
                                + " asking for " + first + " never mixes it with another " + first + "'s nodes"));
            }
        }
    }

    /**
     * A GPU clique names its partition cluster-wide; topograph's sub-domain (or an unpartitioned domain) only
     * within its domain, so the domain's value is part of the identity.
     */
    private static List<KeyValue> partitionId(Domain d) {
        if (d.partition != null && LabelSchemes.GPU_CLIQUE.equals(d.partition.key())) {
            return List.of(d.partition);
        }
        KeyValue domain = d.nvlinkDomain().kv;
        return d.partition == null ? List.of(domain) : List.of(domain, d.partition);
    }

    private static void partitionConflict(List<Domain> same, List<Finding> findings) {
        same.sort(Comparator.comparing(d -> d.name));
        Domain any = same.get(0);
        KeyValue partition = any.partition != null ? any.partition : any.nvlinkDomain().kv;
        String what = "NVLink partition " + UserText.quote(partition.value()) + " (label " + partition.key() + ")";
        for (Domain d : same) {
            KeyValue domain = d.nvlinkDomain().kv;
            String others = examples(
                    elsewhere(same, d, o -> UserText.quote(o.nvlinkDomain().kv.value())));
            findings.add(Finding.warning(
                    TopologyReason.PARTITION_IN_TWO_DOMAINS,
                    hyperNodeRef(d.name),
                    what + " is in NVLink domain " + UserText.quote(domain.value()) + " (label " + domain.key()
                            + ") here but in " + others + " on other nodes; a partition lies in one"
                            + " NVLink domain, so the labels disagree: kept as " + same.size()
                            + " separate HyperNodes"));
        }
    }

    /** What {@code said} tells of each domain of {@code same} but {@code d}, each with its HyperNode. */
    private static List<String> elsewhere(List<Domain> same, Domain d, Function<Domain, String> said) {
        return same.stream()
                .filter(other -> other != d)
                .map(other -> said.apply(other) + " (HyperNode " + other.name + ")")
                .toList();
    }

    private static String where(Domain d) {
        return d.parent == null
                ? "at the top of the " + d.tree.scheme.title() + " tree"
                : "under " + d.parent.describe();
    }

    /** Tiers are global numbers: a tier with one domain in the whole cluster lets a gang go anywhere. */
    static void singleDomainTiers(Forest forest, List<Finding> findings) {
        Map<Integer, List<Domain>> byTier = forest.domains().stream()
                .filter(d -> d.alive)
                .collect(Collectors.groupingBy(d -> d.level + 1, TreeMap::new, Collectors.toList()));
        byTier.forEach((tier, list) -> {
            if (list.size() == 1) {
                Domain d = list.get(0);
                findings.add(Finding.info(
                        TopologyReason.SINGLE_DOMAIN_TIER,
                        hyperNodeRef(d.name),
                        "tier " + tier + " (" + d.tierName() + ") has a single domain, " + d.describe() + " with "
                                + d.nodeCount + " nodes: a gang whose highest tier is " + tier
                                + " may be placed anywhere among them"));
            }
        });
    }
}
