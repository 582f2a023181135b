package io.topobridge.core.topology;

import io.topobridge.core.topology.LabelScheme.TierSpec;
import java.util.SortedSet;
import java.util.TreeSet;

/** The node label keys the built-in presets read, as the chart's node label policy must list them. */
public final class PresetKeys {

    private PresetKeys() {}

    /**
     * Every label key a built-in preset reads, sorted (tier keys, the keys that name NVLink partitions, carriers),
     * without the numbered keys of {@link #prefixesRead()}: the keys a node must not be able to set for itself.
     */
    public static SortedSet<String> keysRead() {
        SortedSet<String> out = new TreeSet<>();
        for (String preset : LabelSchemes.presetNames()) {
            for (LabelScheme scheme : LabelSchemes.preset(preset).orElseThrow()) {
                out.addAll(scheme.carriers());
                for (TierSpec tier : scheme.tiers()) {
                    out.addAll(tier.keys());
                    if (tier.nvlink()) {
                        tier.keys().forEach(k -> out.addAll(LabelSchemes.partitionKeys(k)));
                    }
                }
            }
        }
        return out;
    }

    /** The prefixes of the numbered keys a built-in preset reads (topograph's fabric tiers). */
    public static SortedSet<String> prefixesRead() {
        SortedSet<String> out = new TreeSet<>();
        for (String preset : LabelSchemes.presetNames()) {
            for (LabelScheme scheme : LabelSchemes.preset(preset).orElseThrow()) {
                if (scheme.dynamic() != null) {
                    out.add(scheme.dynamic().prefix());
                }
            }
        }
        return out;
    }
}
