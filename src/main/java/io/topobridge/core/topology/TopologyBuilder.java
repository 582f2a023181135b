package io.topobridge.core.topology;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.LabelScheme.TierSpec;
import io.topobridge.volcano.model.ExactMatch;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSelector;
import io.topobridge.volcano.model.MemberSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Pure function from nodes (and the HyperNodes of other sources) to the HyperNodes the bridge keeps, the tier
 * catalog workloads resolve names against, and findings. A domain is identified by its whole label path, so
 * equal values under different parents never merge; every node of a tree sits at the same depth; tier-1
 * members are Nodes and higher members are HyperNodes, all by {@code exactMatch}. By construction every
 * HyperNode has at most one parent and the tree has no cycle.
 *
 * <p>NVLink has two levels: the domain (the physical system) and the partitions inside it (the GPUs that can
 * really talk over NVLink). Per tree, when no domain (identified by its label path) holds more than one
 * partition, the two are the same sets of nodes and form one tier, {@code nvlink}, whose HyperNodes are the
 * domains. Otherwise every domain of the tree gets a partition level: {@code nvlink} (partitions) under
 * {@code nvlink-domain} (domains), an unpartitioned domain having one partition with all its nodes, because
 * Volcano needs every node of a tree at the same depth. A node without a partition label in a domain where at least
 * half the nodes name one is left out: its partition is unknown; where most name none, a node naming one is left out.
 *
 * <p>Node labels are input the nodes themselves can write, so no single node decides the shape of a tree for the
 * others: an optional tier is kept while at least half the nodes of its tree carry it (the nodes lacking it are left
 * out, each named), so one node can neither take a tier away from the others nor force one on them, and one node
 * relabelled changes only the HyperNodes that list it.
 */
public final class TopologyBuilder {

    /** Estimated serialised size above which a HyperNode is left out (the API server refuses ~1.5 MiB). */
    static final int MAX_HYPERNODE_BYTES = 1_000_000;
    /** How many names a finding lists before it says "and N more". */
    static final int EXAMPLES = 5;

    private static final Map<String, String> LABELS = Map.of(
            VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE,
            Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY);

    private final TopologySettings settings;
    private final List<LabelScheme> schemes;

    public TopologyBuilder(TopologySettings settings) {
        this.settings = settings;
        this.schemes = settings.schemes();
    }

    public TopologySettings settings() {
        return settings;
    }

    /** Labels on every HyperNode the bridge writes. */
    public static Map<String, String> labels() {
        return LABELS;
    }

    /** Whether a node label key can change the tree (node events touching only other labels are ignored). */
    public boolean readsLabel(String key) {
        for (LabelScheme scheme : schemes) {
            if (scheme.reads(key)) {
                return true;
            }
        }
        return false;
    }

    public TopologyResult build(Collection<NodeInfo> nodes) {
        return build(nodes, List.of());
    }

    public TopologyResult build(Collection<NodeInfo> nodes, Collection<ForeignHyperNode> foreign) {
        List<Finding> findings = new ArrayList<>();
        Map<String, NodeInfo> byName = new HashMap<>(nodes.size() * 2);
        for (NodeInfo node : nodes) {
            byName.put(node.name(), node);
        }

        Map<LabelScheme, List<NodeInfo>> members = new LinkedHashMap<>();
        schemes.forEach(s -> members.put(s, new ArrayList<>()));
        int carrying = 0;
        for (NodeInfo node : byName.values()) {
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
        if (carrying == 0 && !byName.isEmpty()) {
            findings.add(noMatch(byName.size()));
        }

        Forest forest = new Forest();
        for (var entry : members.entrySet()) {
            if (!entry.getValue().isEmpty()) {
                plant(entry.getKey(), entry.getValue(), forest, findings);
            }
        }
        Set<String> taken = new HashSet<>();
        foreign.forEach(f -> taken.add(f.name()));
        forest.name(taken);
        forest.prune(findings);
        List<DesiredHyperNode> hyperNodes = forest.hyperNodes();
        forest.parentConflicts(findings);
        forest.partitionConflicts(findings);
        forest.singleDomainTiers(findings);
        overlaps(foreign, forest, byName, findings);
        gpuNodesOutside(byName.values(), hyperNodes, foreign, findings);

        findings.sort(Finding.ORDER);
        hyperNodes.sort(Comparator.comparing((DesiredHyperNode h) -> -h.spec().getTier())
                .thenComparing(DesiredHyperNode::name));
        return new TopologyResult(hyperNodes, forest.catalog(), findings, forest.summaries());
    }

    /** GPU nodes that no HyperNode (the bridge's or another source's) lists: hard-topology gangs never get them. */
    private static void gpuNodesOutside(
            Collection<NodeInfo> nodes,
            List<DesiredHyperNode> ours,
            Collection<ForeignHyperNode> foreign,
            List<Finding> findings) {
        Set<String> placed = new HashSet<>();
        List<HyperNodeSpec> specs = new ArrayList<>();
        ours.forEach(h -> specs.add(h.spec()));
        foreign.forEach(f -> specs.add(f.spec()));
        for (var spec : specs) {
            if (spec == null || spec.getMembers() == null) {
                continue;
            }
            for (var member : spec.getMembers()) {
                if (member.getType() == MemberSpec.TypeEnum.NODE
                        && member.getSelector() != null
                        && member.getSelector().getExactMatch() != null) {
                    placed.add(member.getSelector().getExactMatch().getName());
                }
            }
        }
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
                    schemeRef("tiers"),
                    "the configured tiers match none of the " + nodeCount + " nodes: none carries " + keyList);
        }
        if (TopologySettings.AUTO.equals(settings.preset())) {
            return Finding.info(
                    TopologyReason.NO_MATCHING_NODES,
                    schemeRef(TopologySettings.AUTO),
                    "none of the " + nodeCount + " nodes carries topology labels of a known scheme ("
                            + schemes.stream().map(LabelScheme::id).collect(Collectors.joining(", "))
                            + "): no HyperNodes are built");
        }
        return Finding.warning(
                TopologyReason.NO_MATCHING_NODES,
                schemeRef(settings.preset()),
                "preset '" + settings.preset() + "' matches none of the " + nodeCount + " nodes: none carries "
                        + keyList);
    }

    static ObjectRef schemeRef(String id) {
        return ObjectRef.cluster("TopologyScheme", id);
    }

    static ObjectRef hyperNodeRef(String name) {
        return new ObjectRef(VolcanoApi.HYPERNODE_API_VERSION, "HyperNode", null, name, null);
    }

    // ---- one scheme: depth, values, domains ------------------------------------------------------

    /** A (label key, domain value) pair; a domain's identity is the chain of these from the top. */
    record KeyValue(String key, String value) {}

    private static void plant(LabelScheme scheme, List<NodeInfo> nodes, Forest forest, List<Finding> findings) {
        List<TierSpec> tiers = scheme.tiersUpTo(highestDynamicTier(scheme, nodes));
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

        List<NodeInfo> kept = new ArrayList<>(nodes.size());
        List<KeyValue[]> values = new ArrayList<>(nodes.size());
        for (NodeInfo node : nodes) {
            KeyValue[] resolved = new KeyValue[count];
            List<String> missing = null;
            for (int i = 0; i < count; i++) {
                TierSpec tier = tiers.get(i);
                resolved[i] = resolve(tier, node.labels());
                if (resolved[i] == null && tier.required()) {
                    if (missing == null) {
                        missing = new ArrayList<>();
                    }
                    missing.add(String.join(" or ", tier.keys()) + " (tier " + tier.name() + ")");
                }
            }
            if (missing != null) {
                findings.add(Finding.warning(
                        TopologyReason.MISSING_TIER_LABELS,
                        ObjectRef.node(node.name()),
                        "node carries " + scheme.title() + " labels but lacks " + String.join(", ", missing)
                                + "; left out of the topology tree"));
                continue;
            }
            kept.add(node);
            values.add(resolved);
        }
        if (kept.isEmpty()) {
            return;
        }

        boolean[] used = optionalTiers(scheme, tiers, firstRequired, lastRequired, kept, values, findings);

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
        Tree tree = forest.tree(scheme, usedNames, nvlink);
        for (int n = 0; n < kept.size(); n++) {
            KeyValue[] resolved = values.get(n);
            Domain parent = null;
            for (int level = depth - 1; level >= 0; level--) {
                KeyValue kv = resolved[usedIndex[level]];
                parent = tree.domain(parent, level, kv);
            }
            parent.nodes.add(kept.get(n).name());
            if (nvlink) {
                parent.partitions.add(
                        partition(resolved[usedIndex[0]].key(), kept.get(n).labels()));
            }
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
            int firstRequired,
            int lastRequired,
            List<NodeInfo> kept,
            List<KeyValue[]> values,
            List<Finding> findings) {
        int count = tiers.size();
        boolean[] used = new boolean[count];
        List<Integer> order = new ArrayList<>(count);
        for (int i = firstRequired - 1; i >= 0; i--) {
            order.add(i);
        }
        for (int i = firstRequired; i <= lastRequired; i++) {
            if (tiers.get(i).required()) {
                used[i] = true;
            } else {
                order.add(i);
            }
        }
        for (int i = lastRequired + 1; i < count; i++) {
            order.add(i);
        }
        int total = kept.size();
        boolean[] out = new boolean[total];
        int in = total;
        for (int i : order) {
            int carriers = 0;
            for (int n = 0; n < total; n++) {
                if (!out[n] && values.get(n)[i] != null) {
                    carriers++;
                }
            }
            boolean gap = i > lastRequired && i > 0 && !used[i - 1];
            used[i] = !gap && carriers > 0 && 2L * carriers >= in;
            if (used[i]) {
                for (int n = 0; n < total; n++) {
                    if (!out[n] && values.get(n)[i] == null) {
                        out[n] = true;
                        in--;
                    }
                }
            } else if (carriers > 0) {
                findings.add(leftOut(scheme, tiers.get(i), carriers, in, kept, values, out, i, gap));
            }
        }
        List<NodeInfo> keep = new ArrayList<>(in);
        List<KeyValue[]> keepValues = new ArrayList<>(in);
        for (int n = 0; n < total; n++) {
            if (!out[n]) {
                keep.add(kept.get(n));
                keepValues.add(values.get(n));
                continue;
            }
            List<String> missing = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (used[i] && values.get(n)[i] == null) {
                    missing.add(String.join(" or ", tiers.get(i).keys()) + " (tier "
                            + tiers.get(i).name() + ")");
                }
            }
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
        return used;
    }

    /** The NVLink partition a node names inside its domain (read from {@code domainKey}), or null: none named. */
    private static KeyValue partition(String domainKey, Map<String, String> labels) {
        for (String key : LabelSchemes.partitionKeys(domainKey)) {
            String value = labels.get(key);
            if (value != null && !value.isEmpty()) {
                return new KeyValue(key, value);
            }
        }
        return null;
    }

    /**
     * A GPU clique's UUID is the physical NVLink domain, so all nodes of one UUID must carry the same domain label
     * of their scheme (topograph's domain, or the older accelerator label). The tree follows the scheme's label;
     * the disagreement is reported on every node involved, as nothing tells which side is right.
     */
    private static void cliqueDomainMismatches(
            List<NodeInfo> kept, List<KeyValue[]> values, int nvlinkIndex, List<Finding> findings) {
        Map<String, Map<String, List<Integer>>> byClique = null;
        for (int n = 0; n < kept.size(); n++) {
            KeyValue domain = values.get(n)[nvlinkIndex];
            if (LabelSchemes.GPU_CLIQUE.equals(domain.key())) {
                continue;
            }
            String clique = kept.get(n).labels().get(LabelSchemes.GPU_CLIQUE);
            if (clique == null || clique.isEmpty()) {
                continue;
            }
            if (byClique == null) {
                byClique = new TreeMap<>();
            }
            byClique.computeIfAbsent(LabelSchemes.domainValue(LabelSchemes.GPU_CLIQUE, clique), k -> new TreeMap<>())
                    .computeIfAbsent(domain.value(), k -> new ArrayList<>())
                    .add(n);
        }
        if (byClique == null) {
            return;
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
            List<String> carrying = new ArrayList<>();
            for (int n = 0; n < kept.size(); n++) {
                if (!out[n] && values.get(n)[index] != null) {
                    carrying.add(kept.get(n).name());
                }
            }
            carrying.sort(null);
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
        for (String key : tier.keys()) {
            String value = labels.get(key);
            if (value != null && !value.isEmpty()) {
                return new KeyValue(key, tier.nvlink() ? LabelSchemes.domainValue(key, value) : value);
            }
        }
        return null;
    }

    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    static String examples(List<String> names) {
        String shown = String.join(", ", names.subList(0, Math.min(EXAMPLES, names.size())));
        return names.size() > EXAMPLES ? shown + " and " + (names.size() - EXAMPLES) + " more" : shown;
    }

    // ---- the forest of all trees -------------------------------------------------------------------

    /** One network domain: becomes a HyperNode when it keeps at least one member. */
    static final class Domain {
        final Tree tree;
        final Domain parent;
        final KeyValue kv;
        final String identity;
        /** Changes only when a tree gets its NVLink partition level (every domain moves up one tier). */
        int level;

        Map<KeyValue, Domain> children;
        List<String> nodes;
        /** Beside {@link #nodes} in a tree's NVLink domains while they are built: the partition each node names. */
        List<KeyValue> partitions;
        /** In an NVLink tree's tier 1: the partition these nodes form, or null when it is their whole domain. */
        KeyValue partition;

        String name;
        boolean alive;
        int nodeCount;

        Domain(Tree tree, Domain parent, int level, KeyValue kv) {
            this.tree = tree;
            this.parent = parent;
            this.level = level;
            this.kv = kv;
            this.identity = (parent == null ? tree.scheme.id() : parent.identity) + "\n" + kv.key() + "=" + kv.value();
            this.children = level > 0 ? new HashMap<>() : Map.of();
            this.nodes = level == 0 ? new ArrayList<>() : List.of();
            this.partitions = level == 0 && tree.nvlink && !tree.partitioned ? new ArrayList<>() : null;
        }

        String tierName() {
            return tree.tierNames.get(level);
        }

        String describe() {
            return tierName() + " " + UserText.quote(kv.value());
        }

        /** In an NVLink tree's tier 1: the NVLink domain the partition belongs to (itself when folded). */
        Domain nvlinkDomain() {
            return tree.partitioned ? parent : this;
        }
    }

    /** The tree of one scheme: its tiers (finest first) and its top-level domains. */
    static final class Tree {
        final LabelScheme scheme;
        /** Whether its finest tier is NVLink, and whether that tier was split into partitions and domains. */
        final boolean nvlink;

        boolean partitioned;
        List<String> tierNames;
        final Map<KeyValue, Domain> roots = new HashMap<>();
        final List<Domain> all = new ArrayList<>();

        Tree(LabelScheme scheme, List<String> tierNames, boolean nvlink) {
            this.scheme = scheme;
            this.tierNames = List.copyOf(tierNames);
            this.nvlink = nvlink;
        }

        Domain domain(Domain parent, int level, KeyValue kv) {
            Map<KeyValue, Domain> siblings = parent == null ? roots : parent.children;
            Domain found = siblings.get(kv);
            if (found == null) {
                found = new Domain(this, parent, level, kv);
                siblings.put(kv, found);
                all.add(found);
            }
            return found;
        }

        /**
         * Once every node is in its NVLink domain: leaves out the nodes whose partition labels disagree with most of
         * their domain ({@link #leaveOutPartitionDisagreement}), then keeps the
         * domains as the {@code nvlink} tier when none holds two partitions, or else puts a partition level under
         * every domain (see the class comment).
         */
        void foldOrSplitNvlink(List<Finding> findings) {
            List<Domain> domains = new ArrayList<>();
            for (Domain d : all) {
                if (d.level == 0) {
                    domains.add(d);
                }
            }
            for (Domain d : domains) {
                int named = 0;
                for (KeyValue p : d.partitions) {
                    if (p != null) {
                        named++;
                    }
                }
                if (named > 0 && named < d.partitions.size()) {
                    leaveOutPartitionDisagreement(d, 2L * named >= d.partitions.size(), findings);
                }
                KeyValue first = null;
                for (KeyValue p : d.partitions) {
                    if (p == null) {
                        continue;
                    }
                    if (first == null) {
                        first = p;
                    } else if (!p.equals(first)) {
                        partitioned = true;
                    }
                }
                d.partition = first;
            }
            if (!partitioned) {
                domains.forEach(d -> d.partitions = null);
                return;
            }
            List<String> names = new ArrayList<>(tierNames);
            names.add(1, LabelSchemes.NVLINK_DOMAIN_TIER);
            tierNames = List.copyOf(names);
            for (Domain d : all) {
                d.level++;
            }
            for (Domain d : domains) {
                List<String> nodes = d.nodes;
                List<KeyValue> partitions = d.partitions;
                d.children = new HashMap<>();
                d.nodes = List.of();
                d.partitions = null;
                d.partition = null;
                for (int i = 0; i < nodes.size(); i++) {
                    KeyValue p = partitions.get(i);
                    Domain child = domain(d, 0, p == null ? d.kv : p);
                    child.partition = p;
                    child.nodes.add(nodes.get(i));
                }
            }
        }

        /**
         * Some nodes of an NVLink domain name their partition and some do not. While at least half name one, the
         * domain is partitioned and the others' partition is unknown, so they are left out; otherwise the domain is
         * one partition, as most of its nodes say, and the few naming another are left out. Either way the labels of
         * one node never take the domain's other nodes out of the tree.
         */
        private void leaveOutPartitionDisagreement(Domain d, boolean partitionedByMost, List<Finding> findings) {
            List<String> keep = new ArrayList<>(d.nodes.size());
            List<KeyValue> keepPartitions = new ArrayList<>(d.nodes.size());
            String keys = String.join(" or ", LabelSchemes.partitionKeys(d.kv.key()));
            for (int i = 0; i < d.nodes.size(); i++) {
                KeyValue p = d.partitions.get(i);
                if ((p != null) == partitionedByMost) {
                    keep.add(d.nodes.get(i));
                    keepPartitions.add(p);
                    continue;
                }
                String where = "node is in NVLink domain " + UserText.quote(d.kv.value()) + " (" + d.kv.key() + ")";
                findings.add(
                        partitionedByMost
                                ? Finding.warning(
                                        TopologyReason.MISSING_TIER_LABELS,
                                        ObjectRef.node(d.nodes.get(i)),
                                        where + " whose other nodes name their NVLink partition, but it lacks " + keys
                                                + ", so its partition is unknown; left out of the topology tree")
                                : Finding.warning(
                                        TopologyReason.MINORITY_PARTITION_LABEL,
                                        ObjectRef.node(d.nodes.get(i)),
                                        where + " and names NVLink partition " + UserText.quote(p.value()) + " ("
                                                + p.key() + "), but most nodes of that domain name none (the whole"
                                                + " domain is one partition by their labels); left out of the topology"
                                                + " tree until the labels agree"));
            }
            d.nodes = keep;
            d.partitions = keepPartitions;
        }
    }

    static final class Forest {
        final List<Tree> trees = new ArrayList<>();

        Tree tree(LabelScheme scheme, List<String> tierNames, boolean nvlink) {
            Tree tree = new Tree(scheme, tierNames, nvlink);
            trees.add(tree);
            return tree;
        }

        List<Domain> domains() {
            List<Domain> out = new ArrayList<>();
            trees.forEach(t -> out.addAll(t.all));
            return out;
        }

        /** Deterministic names; a clash (or a name another source holds) gets the longer hash. */
        void name(Set<String> taken) {
            Map<String, List<Domain>> byName = new HashMap<>();
            for (Domain d : domains()) {
                String readable = HyperNodeNames.readable(d.tierName(), d.kv.value());
                boolean plain = d.parent == null && HyperNodeNames.lossless(d.tierName(), d.kv.value());
                d.name = plain ? readable : HyperNodeNames.withHash(readable, d.identity, HyperNodeNames.SHORT_HASH);
                byName.computeIfAbsent(d.name, k -> new ArrayList<>()).add(d);
            }
            List<Domain> clashing = new ArrayList<>();
            for (var entry : byName.entrySet()) {
                if (entry.getValue().size() > 1 || taken.contains(entry.getKey())) {
                    clashing.addAll(entry.getValue());
                }
            }
            int attempt = 0;
            while (!clashing.isEmpty()) {
                clashing.sort(Comparator.comparing(d -> d.identity));
                for (Domain d : clashing) {
                    byName.get(d.name).remove(d);
                    String readable = HyperNodeNames.readable(d.tierName(), d.kv.value());
                    String identity = attempt == 0 ? d.identity : d.identity + "\u0000" + attempt;
                    d.name = HyperNodeNames.withHash(readable, identity, HyperNodeNames.LONG_HASH);
                    byName.computeIfAbsent(d.name, k -> new ArrayList<>()).add(d);
                }
                List<Domain> again = new ArrayList<>();
                for (Domain d : clashing) {
                    List<Domain> same = byName.get(d.name);
                    if (same.size() > 1 || taken.contains(d.name)) {
                        again.add(d);
                    }
                }
                clashing = again;
                attempt++;
            }
        }

        /** Children before parents: a domain lives while it has members and fits in one object. */
        void prune(List<Finding> findings) {
            for (Tree tree : trees) {
                for (Domain root : tree.roots.values()) {
                    prune(root, findings);
                }
            }
        }

        private void prune(Domain d, List<Finding> findings) {
            long bytes = 300;
            int members = 0;
            if (d.level == 0) {
                d.nodes.sort(null);
                for (String node : d.nodes) {
                    bytes += node.length() + 60;
                }
                members = d.nodes.size();
                d.nodeCount = members;
            } else {
                for (Domain child : d.children.values()) {
                    prune(child, findings);
                    if (child.alive) {
                        bytes += child.name.length() + 65;
                        members++;
                        d.nodeCount += child.nodeCount;
                    }
                }
            }
            if (members > 0 && bytes > MAX_HYPERNODE_BYTES) {
                findings.add(Finding.warning(
                        TopologyReason.OVERSIZED_DOMAIN,
                        hyperNodeRef(d.name),
                        d.describe() + " has " + members + " members, too many for one HyperNode object (about "
                                + bytes / 1024 + " KiB); it and its " + d.nodeCount
                                + " nodes are left out of the tree"));
                d.nodeCount = 0;
                members = 0;
            }
            d.alive = members > 0;
        }

        List<DesiredHyperNode> hyperNodes() {
            List<DesiredHyperNode> out = new ArrayList<>();
            for (Domain d : domains()) {
                if (!d.alive) {
                    continue;
                }
                List<MemberSpec> members = new ArrayList<>();
                if (d.level == 0) {
                    d.nodes.forEach(n -> members.add(member(MemberSpec.TypeEnum.NODE, n)));
                } else {
                    d.children.values().stream()
                            .filter(c -> c.alive)
                            .map(c -> c.name)
                            .sorted()
                            .forEach(n -> members.add(member(MemberSpec.TypeEnum.HYPER_NODE, n)));
                }
                HyperNodeSpec spec = new HyperNodeSpec()
                        .tier(d.level + 1)
                        .tierName(d.tierName())
                        .members(members);
                out.add(new DesiredHyperNode(d.name, LABELS, spec));
            }
            return out;
        }

        private static MemberSpec member(MemberSpec.TypeEnum type, String name) {
            return new MemberSpec().type(type).selector(new MemberSelector().exactMatch(new ExactMatch().name(name)));
        }

        /**
         * A value under several parents: never merged (identity is the path), but its nodes disagree. NVLink
         * partitions are left to {@link #partitionConflicts}, which can say more.
         */
        void parentConflicts(List<Finding> findings) {
            Map<KeyValue, List<Domain>> byValue = new HashMap<>();
            for (Domain d : domains()) {
                if (d.alive && !(d.tree.nvlink && d.level == 0)) {
                    byValue.computeIfAbsent(d.kv, k -> new ArrayList<>()).add(d);
                }
            }
            for (List<Domain> same : byValue.values()) {
                if (same.size() < 2) {
                    continue;
                }
                same.sort(Comparator.comparing(d -> d.name));
                for (Domain d : same) {
                    List<String> elsewhere = new ArrayList<>();
                    for (Domain other : same) {
                        if (other != d) {
                            elsewhere.add(where(other) + " (HyperNode " + other.name + ")");
                        }
                    }
                    findings.add(Finding.warning(
                            TopologyReason.DOMAIN_PARENT_CONFLICT,
                            hyperNodeRef(d.name),
                            d.describe() + " (label " + UserText.identifier(d.kv.key()) + ") is " + where(d)
                                    + " here but also "
                                    + examples(elsewhere) + "; its nodes disagree on their parent, so it is kept as "
                                    + same.size() + " separate HyperNodes"));
                }
            }
        }

        /**
         * One NVLink partition in several HyperNodes of a tree: under two NVLink domains (the labels disagree on
         * its domain) or, within one domain, under several switches above it. Either way its nodes stay split, so
         * a gang asking for {@code nvlink} never spans the pieces.
         */
        void partitionConflicts(List<Finding> findings) {
            for (Tree tree : trees) {
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
            boolean domainsDiffer =
                    same.stream().map(d -> d.nvlinkDomain().kv).distinct().count() > 1;
            String what = "NVLink partition " + UserText.quote(partition.value()) + " (label " + partition.key() + ")";
            for (Domain d : same) {
                List<String> elsewhere = new ArrayList<>();
                for (Domain other : same) {
                    if (other != d) {
                        elsewhere.add((domainsDiffer
                                        ? UserText.quote(other.nvlinkDomain().kv.value())
                                        : where(other.nvlinkDomain()))
                                + " (HyperNode " + other.name + ")");
                    }
                }
                if (domainsDiffer) {
                    KeyValue domain = d.nvlinkDomain().kv;
                    findings.add(Finding.warning(
                            TopologyReason.PARTITION_IN_TWO_DOMAINS,
                            hyperNodeRef(d.name),
                            what + " is in NVLink domain " + UserText.quote(domain.value()) + " (label " + domain.key()
                                    + ") here but in " + examples(elsewhere)
                                    + " on other nodes; a partition lies in one"
                                    + " NVLink domain, so the labels disagree: kept as " + same.size()
                                    + " separate HyperNodes"));
                } else {
                    findings.add(Finding.warning(
                            TopologyReason.PARTITION_SPANS_LEAVES,
                            hyperNodeRef(d.name),
                            what + " has nodes " + where(d.nvlinkDomain()) + " here and " + examples(elsewhere)
                                    + "; its nodes are kept apart as " + same.size()
                                    + " separate HyperNodes, so a gang asking for nvlink gets one of them"));
                }
            }
        }

        private static String where(Domain d) {
            return d.parent == null
                    ? "at the top of the " + d.tree.scheme.title() + " tree"
                    : "under " + d.parent.describe();
        }

        /** Tiers are global numbers: a tier with one domain in the whole cluster lets a gang go anywhere. */
        void singleDomainTiers(List<Finding> findings) {
            Map<Integer, List<Domain>> byTier = new TreeMap<>();
            for (Domain d : domains()) {
                if (d.alive) {
                    byTier.computeIfAbsent(d.level + 1, k -> new ArrayList<>()).add(d);
                }
            }
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

        TierCatalog catalog() {
            List<TierCatalog.Tier> tiers = new ArrayList<>();
            for (Tree tree : trees) {
                if (tree.roots.values().stream().anyMatch(d -> d.alive)) {
                    for (int i = 0; i < tree.tierNames.size(); i++) {
                        tiers.add(new TierCatalog.Tier(i + 1, tree.tierNames.get(i)));
                    }
                }
            }
            return TierCatalog.of(tiers);
        }

        List<TreeSummary> summaries() {
            List<TreeSummary> out = new ArrayList<>();
            for (Tree tree : trees) {
                int nodes = 0;
                for (Domain root : tree.roots.values()) {
                    nodes += root.alive ? root.nodeCount : 0;
                }
                long hyperNodes = tree.all.stream().filter(d -> d.alive).count();
                if (hyperNodes > 0) {
                    out.add(new TreeSummary(tree.scheme.id(), tree.tierNames, nodes, (int) hyperNodes));
                }
            }
            return out;
        }
    }

    // ---- other sources' HyperNodes -------------------------------------------------------------------

    private static void overlaps(
            Collection<ForeignHyperNode> foreign, Forest forest, Map<String, NodeInfo> byName, List<Finding> findings) {
        if (foreign.isEmpty()) {
            return;
        }
        Set<String> placed = new HashSet<>();
        Set<String> ours = new HashSet<>();
        for (Domain d : forest.domains()) {
            if (d.alive) {
                ours.add(d.name);
                if (d.level == 0) {
                    placed.addAll(d.nodes);
                }
            }
        }
        List<ForeignHyperNode> sorted = new ArrayList<>(foreign);
        sorted.sort(Comparator.comparing(ForeignHyperNode::name));
        for (ForeignHyperNode hn : sorted) {
            if (hn.spec() == null || hn.spec().getMembers() == null) {
                continue;
            }
            Set<String> nodes = new java.util.TreeSet<>();
            Set<String> hyperNodes = new java.util.TreeSet<>();
            for (MemberSpec member : hn.spec().getMembers()) {
                if (member == null || member.getSelector() == null) {
                    continue;
                }
                boolean nodeMember = member.getType() == MemberSpec.TypeEnum.NODE;
                Set<String> candidates = nodeMember ? placed : ours;
                Set<String> hits = nodeMember ? nodes : hyperNodes;
                MemberSelector selector = member.getSelector();
                if (selector.getExactMatch() != null
                        && candidates.contains(selector.getExactMatch().getName())) {
                    hits.add(selector.getExactMatch().getName());
                }
                if (selector.getRegexMatch() != null && selector.getRegexMatch().getPattern() != null) {
                    Pattern pattern = compile(selector.getRegexMatch().getPattern());
                    if (pattern != null) {
                        candidates.stream()
                                .filter(n -> pattern.matcher(n).find())
                                .forEach(hits::add);
                    }
                }
                if (nodeMember && selector.getLabelMatch() != null) {
                    LabelSelector labelMatch = selector.getLabelMatch();
                    placed.stream()
                            .filter(n -> selects(labelMatch, byName.get(n).labels()))
                            .forEach(hits::add);
                }
            }
            if (nodes.isEmpty() && hyperNodes.isEmpty()) {
                continue;
            }
            String source = hn.labels().get(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL);
            StringBuilder message = new StringBuilder("HyperNode of ")
                    .append(
                            source == null
                                    ? "no declared source"
                                    : VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL + "=" + UserText.quote(source))
                    .append(" covers ");
            if (!nodes.isEmpty()) {
                message.append(count(nodes.size(), "node"))
                        .append(" of topobridge's tree (")
                        .append(examples(new ArrayList<>(nodes)))
                        .append(")");
            }
            if (!hyperNodes.isEmpty()) {
                message.append(nodes.isEmpty() ? "" : " and ")
                        .append(count(hyperNodes.size(), "HyperNode"))
                        .append(" of topobridge's (")
                        .append(examples(new ArrayList<>(hyperNodes)))
                        .append(")");
            }
            message.append(": they get a second parent, which makes Volcano skip topology-aware jobs;"
                    + " keep one source (e.g. disable Volcano's label discovery for these labels)");
            findings.add(Finding.warning(
                    TopologyReason.FOREIGN_HYPER_NODE_OVERLAP, hyperNodeRef(hn.name()), message.toString()));
        }
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
                String value = labels.get(r.getKey());
                List<String> values = r.getValues() == null ? List.of() : r.getValues();
                boolean ok = switch (String.valueOf(r.getOperator())) {
                    case "In" -> value != null && values.contains(value);
                    case "NotIn" -> value == null || !values.contains(value);
                    case "Exists" -> value != null;
                    case "DoesNotExist" -> value == null;
                    default -> false;
                };
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }
}
