package io.topobridge.core.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * One way nodes describe their place in the network: tiers finest first, each read from one or more label
 * keys, and the keys that mark a node as carrying the scheme. Required tiers must be on every node of the
 * scheme (a node lacking one is left out); an optional tier at either end is used while at least half the nodes of
 * the scheme carry it, and then the nodes lacking it are left out, so all nodes sit at the same depth and no single
 * node's labels add or remove a tier for the others.
 *
 * @param id         stable identifier; part of every HyperNode's identity, so renaming it renames HyperNodes
 * @param title      human name for findings and docs
 * @param tiers      static tiers, finest first (before the dynamic ones)
 * @param carriers   label keys whose presence puts a node in this scheme
 * @param dynamic    numbered fabric tiers appended after {@code tiers} (topograph ≥1.0), or null
 */
public record LabelScheme(String id, String title, List<TierSpec> tiers, List<String> carriers, DynamicTiers dynamic) {

    /**
     * One tier: the name users write, the label keys read in order (first present wins), required or not. An
     * NVLink tier reads the NVLink domain from its keys and the partitions inside it from
     * {@link LabelSchemes#partitionKeys}; the builder gives it one or two tiers (see {@link TopologyBuilder}).
     */
    public record TierSpec(String name, List<String> keys, boolean required, boolean nvlink) {
        public TierSpec {
            Objects.requireNonNull(name, "name");
            keys = List.copyOf(keys);
        }

        static TierSpec required(String name, String... keys) {
            return new TierSpec(name, List.of(keys), true, false);
        }

        static TierSpec optional(String name, String... keys) {
            return new TierSpec(name, List.of(keys), false, false);
        }

        static TierSpec nvlinkTier(boolean required, String... domainKeys) {
            return new TierSpec(LabelSchemes.NVLINK_TIER, List.of(domainKeys), required, true);
        }
    }

    /**
     * Tiers read from {@code prefix + N} for N = 0, 1, 2… (0 the finest); tier 0 is required, the others optional.
     * N is capped so a stray label cannot make the tree absurdly deep.
     */
    public record DynamicTiers(String prefix, int max, IntFunction<String> names) {
        /** The N of a key like {@code prefix + "3"}, or -1. */
        int index(String key) {
            if (!key.startsWith(prefix) || key.length() == prefix.length() || key.length() > prefix.length() + 3) {
                return -1;
            }
            int n = 0;
            for (int i = prefix.length(); i < key.length(); i++) {
                char c = key.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                n = n * 10 + (c - '0');
            }
            return n <= max ? n : -1;
        }
    }

    public LabelScheme {
        Objects.requireNonNull(id, "id");
        tiers = List.copyOf(tiers);
        carriers = List.copyOf(carriers);
    }

    public boolean carriedBy(Map<String, String> labels) {
        for (String key : carriers) {
            if (present(labels, key)) {
                return true;
            }
        }
        if (dynamic != null) {
            for (String key : labels.keySet()) {
                if (dynamic.index(key) >= 0 && present(labels, key)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the key is one this scheme reads (used to ignore node events that touch other labels). */
    public boolean reads(String key) {
        if (dynamic != null && dynamic.index(key) >= 0) {
            return true;
        }
        for (TierSpec tier : tiers) {
            if (tier.keys().contains(key)
                    || tier.nvlink()
                            && tier.keys().stream()
                                    .anyMatch(k -> LabelSchemes.partitionKeys(k).contains(key))) {
                return true;
            }
        }
        return carriers.contains(key);
    }

    /** The scheme's tiers, finest first, with dynamic tiers 0..{@code highestDynamic} appended. */
    public List<TierSpec> tiersUpTo(int highestDynamic) {
        if (dynamic == null) {
            return tiers;
        }
        List<TierSpec> out = new ArrayList<>(tiers);
        for (int n = 0; n <= Math.min(highestDynamic, dynamic.max()); n++) {
            out.add(new TierSpec(dynamic.names().apply(n), List.of(dynamic.prefix() + n), n == 0, false));
        }
        return List.copyOf(out);
    }

    static boolean present(Map<String, String> labels, String key) {
        String value = labels.get(key);
        return value != null && !value.isEmpty();
    }
}
