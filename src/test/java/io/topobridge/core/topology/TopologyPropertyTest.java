package io.topobridge.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random clusters (seeded, so a failure names its seed and reproduces): random depth, branching and label
 * values (upper case, '_', '.', 63 characters, values reused under different parents), some labels missing
 * and some node names unusable. Whatever the input, the output is a valid uniform-depth tree whose tier-k
 * groups are exactly the groups of equal label paths from tier k up, and it does not depend on input order.
 */
class TopologyPropertyTest {

    private static final String ALPHABET = "abcdefxyzABCXYZ0123456789-_.";

    static Stream<Long> seeds() {
        return LongStream.range(0, 300).boxed();
    }

    /** A random cluster: the tier keys (finest first) and the nodes. */
    record Cluster(List<String> keys, List<NodeInfo> nodes) {}

    static Cluster cluster(Random random) {
        int depth = 1 + random.nextInt(4);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < depth; i++) {
            keys.add("example.com/level-" + i);
        }
        // a small pool of values per level, so equal values under different parents are common
        List<List<String>> pools = new ArrayList<>();
        for (int i = 0; i < depth; i++) {
            List<String> pool = new ArrayList<>();
            int size = 1 + random.nextInt(4);
            for (int v = 0; v < size; v++) {
                pool.add(value(random));
            }
            pools.add(pool);
        }
        List<NodeInfo> nodes = new ArrayList<>();
        int count = 1 + random.nextInt(60);
        for (int n = 0; n < count; n++) {
            Map<String, String> labels = new LinkedHashMap<>();
            for (int i = 0; i < depth; i++) {
                if (random.nextInt(20) != 0) {
                    labels.put(
                            keys.get(i),
                            pools.get(i).get(random.nextInt(pools.get(i).size())));
                }
            }
            if (random.nextBoolean()) {
                labels.put("kubernetes.io/hostname", "h" + n);
            }
            String name = switch (random.nextInt(30)) {
                case 0 -> "Node-" + n;
                case 1 -> "n".repeat(64) + n;
                default -> "node-" + n + (random.nextBoolean() ? ".example.internal" : "");
            };
            nodes.add(Nodes.of(name, labels));
        }
        return new Cluster(keys, nodes);
    }

    static String value(Random random) {
        if (random.nextInt(8) == 0) {
            return "V" + "x".repeat(61) + (char) ('a' + random.nextInt(26));
        }
        int length = 1 + random.nextInt(12);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < length; i++) {
            char c = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
            if ((i == 0 || i == length - 1) && !Character.isLetterOrDigit(c)) {
                c = 'q';
            }
            out.append(c);
        }
        return out.toString();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void outputIsAValidTreeMatchingTheLabelPaths(long seed) {
        Cluster cluster = cluster(new Random(seed));
        List<String> specs = new ArrayList<>();
        for (int i = 0; i < cluster.keys().size(); i++) {
            specs.add(cluster.keys().get(i) + "=level-" + i);
        }
        TopologyBuilder builder = new TopologyBuilder(TopologySettings.parse("auto", specs));
        TopologyResult result = builder.build(cluster.nodes(), List.of());
        String context = "seed " + seed;
        TreeAssertions.Tree tree = TreeAssertions.assertValidTree(result, context);

        // exactly the nodes with every label and a usable name are placed
        Set<String> expected = new HashSet<>();
        for (NodeInfo node : cluster.nodes()) {
            if (HyperNodeNames.matchable(node.name()) && cluster.keys().stream().allMatch(node.labels()::containsKey)) {
                expected.add(node.name());
            }
        }
        assertThat(tree.nodeParent().keySet()).as(context).isEqualTo(expected);

        // tier-k groups equal label-path groups (values of tiers k..top), for every k
        int depth = cluster.keys().size();
        for (int k = 1; k <= depth; k++) {
            Map<String, Set<String>> byHyperNode = new HashMap<>();
            Map<List<String>, Set<String>> byPath = new HashMap<>();
            for (NodeInfo node : cluster.nodes()) {
                if (!expected.contains(node.name())) {
                    continue;
                }
                byHyperNode
                        .computeIfAbsent(tree.ancestor(node.name(), k), x -> new HashSet<>())
                        .add(node.name());
                List<String> path = new ArrayList<>();
                for (int i = k - 1; i < depth; i++) {
                    path.add(node.labels().get(cluster.keys().get(i)));
                }
                byPath.computeIfAbsent(path, x -> new HashSet<>()).add(node.name());
            }
            assertThat(new HashSet<>(byHyperNode.values()))
                    .as("%s tier %d groups", context, k)
                    .isEqualTo(new HashSet<>(byPath.values()));
            int tier = k;
            assertThat(byHyperNode.keySet())
                    .as(context)
                    .allMatch(name -> tree.byName().get(name).spec().getTier() == tier
                            && tree.byName().get(name).spec().getTierName().equals("level-" + (tier - 1)));
        }
        if (!expected.isEmpty()) {
            assertThat(result.tiers().top()).as(context).isEqualTo(depth);
        }

        // input order does not matter
        List<NodeInfo> shuffled = new ArrayList<>(cluster.nodes());
        Collections.shuffle(shuffled, new Random(seed * 31 + 7));
        TopologyResult again = builder.build(shuffled, List.of());
        assertThat(again.hyperNodes()).as(context).isEqualTo(result.hyperNodes());
        assertThat(again.findings()).as(context).isEqualTo(result.findings());
        assertThat(again.tiers()).as(context).isEqualTo(result.tiers());
    }

    /**
     * Random GPU racks under leaf and spine switches, each NVLink domain split into partitions (often one, so the
     * fold is exercised too, and sometimes a domain value reused under another leaf or spine: a rail-cabled rack),
     * labelled the three ways clusters do: GPU clique alone, topograph's domain and sub-domain, topograph's domain
     * with the clique. Some nodes lose their partition label. Tier 1 is always exactly one partition of one NVLink
     * domain, and a domain is never split by its switches; there is a domain tier exactly when some domain holds two
     * partitions; a leaf-tier HyperNode holds one leaf's nodes or one NVLink domain; nodes of unknown partition are
     * left out only where their domain's other nodes name partitions.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void nvlinkTierOneIsExactlyOnePartition(long seed) {
        Random random = new Random(seed);
        int style = random.nextInt(3);
        boolean splits = random.nextBoolean();
        List<NodeInfo> nodes = new ArrayList<>();
        Map<String, List<String>> partitionOf = new HashMap<>();
        Map<String, List<String>> domainOf = new HashMap<>();
        int spines = 1 + random.nextInt(2);
        for (int s = 0; s < spines; s++) {
            for (int l = 0, leaves = 1 + random.nextInt(3); l < leaves; l++) {
                for (int d = 0, domains = 1 + random.nextInt(3); d < domains; d++) {
                    String domain = random.nextInt(10) == 0
                            ? "0badc0de"
                            : Integer.toHexString(0x10000000 + random.nextInt(0x0fffffff));
                    for (int p = 1, parts = splits ? 1 + random.nextInt(3) : 1; p <= parts; p++) {
                        for (int t = 0, trays = 1 + random.nextInt(4); t < trays; t++) {
                            String name = "n" + nodes.size();
                            Map<String, String> labels = new HashMap<>();
                            labels.put("fabric.topograph.run/tier-0", "leaf-" + s + "-" + l);
                            labels.put("fabric.topograph.run/tier-1", "spine-" + s);
                            boolean named = style == 0 || random.nextInt(15) != 0;
                            switch (style) {
                                case 0 -> labels.put("nvidia.com/gpu.clique", domain + "." + p);
                                case 1 -> {
                                    labels.put("accelerator.topograph.run/domain", domain);
                                    if (named) {
                                        labels.put("accelerator.topograph.run/sub-domain", "p" + p);
                                    }
                                }
                                default -> {
                                    labels.put("accelerator.topograph.run/domain", "nvl-" + domain);
                                    if (named) {
                                        labels.put("nvidia.com/gpu.clique", domain + "." + p);
                                    }
                                }
                            }
                            nodes.add(Nodes.of(name, labels));
                            List<String> path = List.of(domain);
                            domainOf.put(name, path);
                            List<String> partition = new ArrayList<>(path);
                            partition.add(named ? "p" + p : null);
                            partitionOf.put(name, partition);
                        }
                    }
                }
            }
        }
        // what the builder should make of it: per NVLink domain, what most of its nodes say about partitions wins
        Map<List<String>, Integer> namedIn = new HashMap<>();
        Map<List<String>, Integer> nodesIn = new HashMap<>();
        partitionOf.forEach((node, partition) -> {
            nodesIn.merge(domainOf.get(node), 1, Integer::sum);
            if (partition.get(1) != null) {
                namedIn.merge(domainOf.get(node), 1, Integer::sum);
            }
        });
        Set<String> placed = new HashSet<>();
        Map<List<String>, Set<String>> known = new HashMap<>();
        partitionOf.forEach((node, partition) -> {
            List<String> domain = domainOf.get(node);
            boolean partitionedByMost = 2 * namedIn.getOrDefault(domain, 0) >= nodesIn.get(domain);
            if ((partition.get(1) != null) == partitionedByMost) {
                placed.add(node);
                if (partition.get(1) != null) {
                    known.computeIfAbsent(domain, k -> new HashSet<>()).add(partition.get(1));
                }
            }
        });
        boolean split = known.values().stream().anyMatch(p -> p.size() > 1);

        TopologyBuilder builder = new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null));
        TopologyResult result = builder.build(nodes, List.of());
        String context = "seed " + seed + " style " + style;
        TreeAssertions.Tree tree = TreeAssertions.assertValidTree(result, context);
        assertThat(tree.nodeParent().keySet()).as(context).isEqualTo(placed);
        assertThat(tree.tierNames())
                .as(context)
                .isEqualTo(
                        split
                                ? List.of("1=nvlink", "2=nvlink-domain", "3=leaf", "4=spine")
                                : List.of("1=nvlink", "2=leaf", "3=spine"));
        assertThat(groups(tree, placed, 1)).as("%s tier 1", context).isEqualTo(expectedGroups(placed, partitionOf));
        if (split) {
            assertThat(groups(tree, placed, 2)).as("%s tier 2", context).isEqualTo(expectedGroups(placed, domainOf));
        }
        Map<String, String> leafOf = new HashMap<>();
        nodes.forEach(n -> leafOf.put(n.name(), n.labels().get("fabric.topograph.run/tier-0")));
        for (Set<String> leaf : groups(tree, placed, split ? 3 : 2)) {
            assertThat(leaf.stream().map(leafOf::get).distinct().count() == 1
                            || leaf.stream().map(domainOf::get).distinct().count() == 1)
                    .as("%s: a leaf HyperNode holds one leaf's nodes or one NVLink domain: %s", context, leaf)
                    .isTrue();
        }
        assertThat(result.findings())
                .as(context)
                .filteredOn(f -> f.reason() == TopologyReason.MISSING_TIER_LABELS
                        || f.reason() == TopologyReason.MINORITY_PARTITION_LABEL)
                .extracting(f -> f.object().name())
                .containsExactlyInAnyOrderElementsOf(nodes.stream()
                        .map(NodeInfo::name)
                        .filter(n -> !placed.contains(n))
                        .toList());
        assertThat(result.findings())
                .as(context)
                .noneMatch(f -> f.reason() == TopologyReason.PARTITION_IN_TWO_DOMAINS
                        || f.reason() == TopologyReason.CLIQUE_DOMAIN_MISMATCH);

        List<NodeInfo> shuffled = new ArrayList<>(nodes);
        Collections.shuffle(shuffled, new Random(seed * 17 + 3));
        TopologyResult again = builder.build(shuffled, List.of());
        assertThat(again.hyperNodes()).as(context).isEqualTo(result.hyperNodes());
        assertThat(again.findings()).as(context).isEqualTo(result.findings());
    }

    private static Set<Set<String>> groups(TreeAssertions.Tree tree, Set<String> nodes, int tier) {
        Map<String, Set<String>> out = new HashMap<>();
        nodes.forEach(n -> out.computeIfAbsent(tree.ancestor(n, tier), k -> new HashSet<>())
                .add(n));
        return new HashSet<>(out.values());
    }

    private static Set<Set<String>> expectedGroups(Set<String> nodes, Map<String, List<String>> keyOf) {
        Map<List<String>, Set<String>> out = new HashMap<>();
        nodes.forEach(
                n -> out.computeIfAbsent(keyOf.get(n), k -> new HashSet<>()).add(n));
        return new HashSet<>(out.values());
    }

    /** The same property over the presets, with random mixes of schemes and random partial labelling. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void presetsAlwaysGiveValidTrees(long seed) {
        Random random = new Random(seed);
        String[][] keySets = {
            {
                "fabric.topograph.run/tier-0",
                "fabric.topograph.run/tier-1",
                "fabric.topograph.run/tier-2",
                "nvidia.com/gpu.clique"
            },
            {
                "topology.k8s.aws/network-node-layer-1",
                "topology.k8s.aws/network-node-layer-2",
                "topology.k8s.aws/network-node-layer-3",
                "topology.k8s.aws/network-node-layer-4"
            },
            {
                "cloud.google.com/gce-topology-block",
                "cloud.google.com/gce-topology-subblock",
                "cloud.google.com/gce-topology-host"
            },
            {"volcano.sh/hypercluster", "volcano.sh/hypernode", "volcano.sh/tor"},
            {
                "network.topology.nvidia.com/leaf",
                "network.topology.nvidia.com/spine",
                "network.topology.nvidia.com/block",
                "network.topology.nvidia.com/accelerator"
            },
        };
        List<NodeInfo> nodes = new ArrayList<>();
        int count = 1 + random.nextInt(80);
        for (int n = 0; n < count; n++) {
            String[] keys = keySets[random.nextInt(keySets.length)];
            Map<String, String> labels = new HashMap<>();
            for (String key : keys) {
                if (random.nextInt(6) != 0) {
                    String v = value(random);
                    labels.put(
                            key,
                            key.endsWith("clique")
                                    ? v + "." + random.nextInt(3)
                                    : v.substring(0, Math.min(v.length(), 3)));
                }
            }
            nodes.add(Nodes.of("node-" + n, labels));
        }
        for (String preset : List.of("auto", "topograph", "aws", "gke", "volcano", "nvidia-gfd", "oci")) {
            TopologyBuilder builder = new TopologyBuilder(TopologySettings.parse(preset, List.of()));
            TopologyResult result = builder.build(nodes, List.of());
            TreeAssertions.assertValidTree(result, "seed " + seed + " preset " + preset);
            List<NodeInfo> shuffled = new ArrayList<>(nodes);
            Collections.shuffle(shuffled, new Random(seed));
            assertThat(builder.build(shuffled, List.of()).hyperNodes())
                    .as("seed %d preset %s", seed, preset)
                    .isEqualTo(result.hyperNodes());
        }
    }
    // ---- one node's labels against the others' tree --------------------------------------------------

    /**
     * A scheme as the property tests label nodes with it: its keys coarsest first, which of them are optional (from
     * the preset), and whether its finest key is the GPU clique (a value {@code <domain>.<partition>}).
     */
    record Scheme(String preset, List<String> keys, Set<String> optional) {}

    static final List<Scheme> SCHEMES = List.of(
            new Scheme(
                    "aws",
                    List.of(
                            "topology.k8s.aws/network-node-layer-1",
                            "topology.k8s.aws/network-node-layer-2",
                            "topology.k8s.aws/network-node-layer-3",
                            "topology.k8s.aws/network-node-layer-4",
                            "nvidia.com/gpu.clique"),
                    Set.of("topology.k8s.aws/network-node-layer-4", "nvidia.com/gpu.clique")),
            new Scheme(
                    "auto",
                    List.of(
                            "fabric.topograph.run/tier-2",
                            "fabric.topograph.run/tier-1",
                            "fabric.topograph.run/tier-0",
                            "nvidia.com/gpu.clique"),
                    Set.of("fabric.topograph.run/tier-2", "fabric.topograph.run/tier-1", "nvidia.com/gpu.clique")),
            new Scheme(
                    "auto",
                    List.of(
                            "network.topology.nvidia.com/core",
                            "network.topology.nvidia.com/spine",
                            "network.topology.nvidia.com/leaf",
                            "network.topology.nvidia.com/accelerator",
                            "nvidia.com/gpu.clique"),
                    Set.of(
                            "network.topology.nvidia.com/core",
                            "network.topology.nvidia.com/spine",
                            "network.topology.nvidia.com/accelerator",
                            "nvidia.com/gpu.clique")),
            new Scheme(
                    "gke",
                    List.of(
                            "cloud.google.com/gce-topology-block",
                            "cloud.google.com/gce-topology-subblock",
                            "cloud.google.com/gce-topology-host"),
                    Set.of("cloud.google.com/gce-topology-host")),
            new Scheme(
                    "volcano",
                    List.of("volcano.sh/hypercluster", "volcano.sh/hypernode", "nvidia.com/gpu.clique"),
                    Set.of("volcano.sh/hypercluster", "nvidia.com/gpu.clique")),
            new Scheme(
                    "oci",
                    List.of(
                            "oci.oraclecloud.com/rdma.hpc_island_id",
                            "oci.oraclecloud.com/rdma.network_block_id",
                            "oci.oraclecloud.com/rdma.local_block_id",
                            "nvidia.com/gpu.clique"),
                    Set.of("nvidia.com/gpu.clique")));

    /**
     * Consistent labels for one node: at each level a small random branch, the value naming the whole path above it
     * (so a value has one parent), the clique {@code <domain>.<partition>} with the domain named by the path.
     */
    static Map<String, String> consistent(Scheme scheme, Random random, Set<String> only) {
        Map<String, String> labels = new LinkedHashMap<>();
        StringBuilder path = new StringBuilder();
        for (String key : scheme.keys()) {
            path.append(random.nextInt(2));
            if (!only.contains(key)) {
                continue;
            }
            labels.put(
                    key,
                    key.equals("nvidia.com/gpu.clique")
                            ? "d" + path.substring(0, path.length() - 1) + "." + path.charAt(path.length() - 1)
                            : "v" + path);
        }
        return labels;
    }

    /** Any labels at all on one node: each key of the scheme kept, dropped or given a value of another place. */
    static Map<String, String> arbitrary(Scheme scheme, Random random) {
        Map<String, String> labels = new LinkedHashMap<>(consistent(scheme, random, Set.copyOf(scheme.keys())));
        for (String key : scheme.keys()) {
            switch (random.nextInt(4)) {
                case 0 -> labels.remove(key);
                case 1 ->
                    labels.put(
                            key,
                            key.equals("nvidia.com/gpu.clique")
                                    ? "d" + random.nextInt(8) + "." + random.nextInt(3)
                                    : random.nextBoolean() ? "v" + random.nextInt(8) : value(random));
                default -> {
                    // kept as a consistent node would have it
                }
            }
        }
        if (random.nextInt(5) == 0) {
            // a key of another scheme, which may move the node to another tree
            Scheme other = SCHEMES.get(random.nextInt(SCHEMES.size()));
            labels.put(other.keys().get(random.nextInt(other.keys().size())), "stray");
        }
        return labels;
    }

    /** Each placed node's tier names above it, tier 1 first. */
    static Map<String, List<String>> tiersAbove(TreeAssertions.Tree tree) {
        Map<String, List<String>> out = new HashMap<>();
        tree.nodeParent().forEach((node, at) -> {
            List<String> names = new ArrayList<>();
            for (String h = at; h != null; h = tree.parent().get(h)) {
                names.add(tree.byName().get(h).spec().getTierName());
            }
            out.put(node, names);
        });
        return out;
    }

    /**
     * Nodes that all carry every tier of their scheme, and one more node with any labels at all (missing keys, other
     * values, keys of another scheme): every other node stays in the tree and keeps every tier it had without that
     * node. One node can at most add a tier above the others' partitions (by naming a second NVLink partition in
     * their domain), never take one away.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void oneNodesLabelsNeverTakeATierFromTheOthers(long seed) {
        Random random = new Random(seed);
        Scheme scheme = SCHEMES.get(random.nextInt(SCHEMES.size()));
        List<NodeInfo> others = new ArrayList<>();
        for (int n = 0, count = 1 + random.nextInt(30); n < count; n++) {
            others.add(Nodes.of("node-" + n, consistent(scheme, random, Set.copyOf(scheme.keys()))));
        }
        NodeInfo odd = Nodes.of("odd", arbitrary(scheme, random));
        TopologyBuilder builder = new TopologyBuilder(TopologySettings.parse(scheme.preset(), List.of()));
        String context = "seed " + seed + " " + scheme.keys().get(0) + " odd " + odd.labels();

        TopologyResult without = builder.build(others, List.of());
        List<NodeInfo> with = new ArrayList<>(others);
        with.add(random.nextInt(with.size() + 1), odd);
        TopologyResult result = builder.build(with, List.of());

        Map<String, List<String>> before = tiersAbove(TreeAssertions.assertValidTree(without, context));
        Map<String, List<String>> after = tiersAbove(TreeAssertions.assertValidTree(result, context));
        assertThat(before.keySet()).as(context).hasSize(others.size());
        for (NodeInfo node : others) {
            assertThat(after.get(node.name()))
                    .as("%s: tiers above %s", context, node.name())
                    .isNotNull()
                    .containsAll(before.get(node.name()));
        }
    }

    /**
     * Nodes that carry only their scheme's required tiers, and one node that also carries every optional one: at
     * least two others keep their tree exactly as it was (no tier is forced on them, nobody is left out).
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void oneNodesStrayTiersAreNotForcedOnTheOthers(long seed) {
        Random random = new Random(seed);
        Scheme scheme = SCHEMES.get(random.nextInt(SCHEMES.size()));
        Set<String> required = new HashSet<>(scheme.keys());
        required.removeAll(scheme.optional());
        List<NodeInfo> others = new ArrayList<>();
        for (int n = 0, count = 2 + random.nextInt(30); n < count; n++) {
            others.add(Nodes.of("node-" + n, consistent(scheme, random, required)));
        }
        NodeInfo odd = Nodes.of("odd", consistent(scheme, random, Set.copyOf(scheme.keys())));
        TopologyBuilder builder = new TopologyBuilder(TopologySettings.parse(scheme.preset(), List.of()));
        String context = "seed " + seed + " " + scheme.keys().get(0);

        Map<String, List<String>> before =
                tiersAbove(TreeAssertions.assertValidTree(builder.build(others, List.of()), context));
        List<NodeInfo> with = new ArrayList<>(others);
        with.add(odd);
        Map<String, List<String>> after =
                tiersAbove(TreeAssertions.assertValidTree(builder.build(with, List.of()), context));
        for (NodeInfo node : others) {
            assertThat(after.get(node.name()))
                    .as("%s: tiers above %s", context, node.name())
                    .isEqualTo(before.get(node.name()));
        }
    }
}
