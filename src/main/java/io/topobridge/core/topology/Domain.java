package io.topobridge.core.topology;

import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One network domain: becomes a HyperNode when it keeps at least one member. */
final class Domain {
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
    /** While an NVLink domain is built: how many of its nodes name a partition (the first: {@link #partition}). */
    int named;
    /** While an NVLink domain is built: whether two of its nodes name different partitions. */
    boolean twoPartitions;

    /** A HyperNode of a skipped tier holding only one NVLink domain kept whole ({@link RailDomains}). */
    boolean passThrough;

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

    /** Notes the partition a node put in this NVLink domain names (null: none). */
    void addPartition(KeyValue p) {
        partitions.add(p);
        if (p != null) {
            named++;
            twoPartitions = twoPartitions || (partition != null && !p.equals(partition));
            partition = partition == null ? p : partition;
        }
    }

    String tierName() {
        return tree.tierNames.get(level);
    }

    String describe() {
        return passThrough
                ? tierName() + " of NVLink domain " + UserText.quote(kv.value())
                : tierName() + " " + UserText.quote(kv.value());
    }

    /** In an NVLink tree's tier 1: the NVLink domain the partition belongs to (itself when folded). */
    Domain nvlinkDomain() {
        return tree.partitioned ? parent : this;
    }
}
