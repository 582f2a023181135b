package io.topobridge.core.topology;

import java.util.List;
import java.util.Objects;

/**
 * Validated topology configuration: a preset name, or explicit tiers (finest first) that override it.
 * Construction fails with one clear message for an invalid combination.
 */
public record TopologySettings(String preset, List<TierLabel> tiers) {

    /** One explicit tier: the node label key and the tier name users may write. */
    public record TierLabel(String labelKey, String name) {
    }

    public TopologySettings {
        Objects.requireNonNull(preset, "preset");
        tiers = tiers == null ? List.of() : List.copyOf(tiers);
    }

    /**
     * Parses configuration: {@code tierSpecs} ({@code LABEL[=NAME]}, finest first) override {@code preset}.
     *
     * @throws IllegalArgumentException naming the offending entry
     */
    public static TopologySettings parse(String preset, List<String> tierSpecs) {
        if (tierSpecs == null || tierSpecs.isEmpty()) {
            if (preset == null || preset.isBlank()) {
                throw new IllegalArgumentException("topobridge.topology.preset: must not be empty");
            }
            return new TopologySettings(preset.trim(), List.of());
        }
        var tiers = new java.util.ArrayList<TierLabel>();
        var keys = new java.util.HashSet<String>();
        var names = new java.util.HashSet<String>();
        for (String raw : tierSpecs) {
            String entry = raw == null ? "" : raw.trim();
            int eq = entry.indexOf('=');
            String key = (eq < 0 ? entry : entry.substring(0, eq)).trim();
            String name = eq < 0 ? key : entry.substring(eq + 1).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("topobridge.topology.tiers: entry '" + raw + "' has an empty label key");
            }
            if (name.isEmpty()) {
                throw new IllegalArgumentException("topobridge.topology.tiers: entry '" + raw + "' has an empty tier name");
            }
            if (!keys.add(key)) {
                throw new IllegalArgumentException("topobridge.topology.tiers: label key '" + key + "' is listed twice");
            }
            if (!names.add(name)) {
                throw new IllegalArgumentException("topobridge.topology.tiers: tier name '" + name + "' is used twice");
            }
            tiers.add(new TierLabel(key, name));
        }
        return new TopologySettings("custom", tiers);
    }

    public static TopologySettings auto() {
        return new TopologySettings("auto", List.of());
    }
}
