package io.topobridge.core.topology;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The tree of one scheme: its tiers (finest first) and its top-level domains. */
final class Tree {
    final LabelScheme scheme;
    /** Whether its finest tier is NVLink, and whether that tier was split into partitions and domains. */
    final boolean nvlink;

    boolean partitioned;
    List<String> tierNames;
    final Map<KeyValue, Domain> roots = new HashMap<>();
    final List<Domain> all = new ArrayList<>();
    /** The NVLink domains kept whole across the switches their nodes hang off. */
    final List<RailDomains.Rail> rails = new ArrayList<>();

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
        List<Domain> domains = all.stream().filter(d -> d.level == 0).toList();
        for (Domain d : domains) {
            if (d.named > 0 && d.named < d.partitions.size()) {
                boolean partitionedByMost = 2L * d.named >= d.partitions.size();
                leaveOutPartitionDisagreement(d, partitionedByMost, findings);
                // the nodes left name one partition each, as before, or none
                d.partition = partitionedByMost ? d.partition : null;
                d.twoPartitions &= partitionedByMost;
            }
            partitioned |= d.twoPartitions;
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
