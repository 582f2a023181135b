package io.topobridge.core.topology;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validated topology configuration: a preset (default {@code auto}) or explicit tiers, finest first. Parsing
 * fails with one message naming the key and the offending value.
 */
public record TopologySettings(String preset, List<TierLabel> tiers) {

    /** Preset name used when explicit tiers are configured. */
    public static final String CUSTOM = "custom";

    public static final String AUTO = "auto";

    private static final String PRESET_KEY = "topobridge.topology.preset";
    private static final String TIERS_KEY = "topobridge.topology.tiers";
    private static final Pattern LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    /** One explicit tier: the node label key and the tier name users may write. */
    public record TierLabel(String labelKey, String name) {
        public TierLabel {
            Objects.requireNonNull(labelKey, "labelKey");
            Objects.requireNonNull(name, "name");
        }
    }

    public TopologySettings {
        Objects.requireNonNull(preset, "preset");
        tiers = tiers == null ? List.of() : List.copyOf(tiers);
    }

    public boolean custom() {
        return !tiers.isEmpty();
    }

    /** The schemes this configuration reads, in precedence order. */
    public List<LabelScheme> schemes() {
        if (custom()) {
            return List.of(LabelSchemes.explicit(tiers));
        }
        return LabelSchemes.preset(preset).orElseThrow(() -> new IllegalArgumentException(unknownPreset(preset)));
    }

    /**
     * Parses configuration: a preset, or {@code tierSpecs} ({@code LABEL[=NAME]}, finest first). A preset other
     * than {@code auto} together with tiers is refused: one of them would be silently ignored.
     *
     * @throws IllegalArgumentException naming the offending key and value
     */
    public static TopologySettings parse(String preset, List<String> tierSpecs) {
        String chosen = preset == null ? "" : preset.trim().toLowerCase(Locale.ROOT);
        if (tierSpecs == null || tierSpecs.isEmpty()) {
            if (chosen.isEmpty()) {
                throw new IllegalArgumentException(PRESET_KEY + ": must not be empty (known presets: "
                        + String.join(", ", LabelSchemes.presetNames()) + ")");
            }
            if (LabelSchemes.preset(chosen).isEmpty()) {
                throw new IllegalArgumentException(unknownPreset(preset));
            }
            return new TopologySettings(chosen, List.of());
        }
        if (!chosen.isEmpty() && !AUTO.equals(chosen)) {
            throw new IllegalArgumentException(PRESET_KEY + "='" + preset.trim() + "' and " + TIERS_KEY
                    + " are both set: set one (explicit tiers replace every preset)");
        }
        List<TierLabel> tiers = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (String raw : tierSpecs) {
            String entry = raw == null ? "" : raw.trim();
            int eq = entry.indexOf('=');
            String key = (eq < 0 ? entry : entry.substring(0, eq)).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException(TIERS_KEY + ": entry '" + entry + "' has an empty label key");
            }
            String keyProblem = labelKeyProblem(key);
            if (keyProblem != null) {
                throw new IllegalArgumentException(TIERS_KEY + ": entry '" + entry + "': label key '" + key
                        + "' is not a valid label key (" + keyProblem + ")");
            }
            // example.com/rack names its tier rack
            String name = eq < 0
                    ? key.substring(key.lastIndexOf('/') + 1)
                    : entry.substring(eq + 1).trim();
            if (name.isEmpty()) {
                throw new IllegalArgumentException(TIERS_KEY + ": entry '" + entry + "' has an empty tier name");
            }
            String nameProblem = tierNameProblem(name);
            if (nameProblem != null) {
                throw new IllegalArgumentException(TIERS_KEY + ": entry '" + entry + "': tier name '" + name + "' "
                        + nameProblem + (eq < 0 ? "; name the tier explicitly as LABEL=NAME" : ""));
            }
            if (!keys.add(key)) {
                throw new IllegalArgumentException(TIERS_KEY + ": label key '" + key + "' is listed twice");
            }
            if (!names.add(name)) {
                throw new IllegalArgumentException(TIERS_KEY + ": tier name '" + name + "' is used twice");
            }
            tiers.add(new TierLabel(key, name));
        }
        return new TopologySettings(CUSTOM, tiers);
    }

    private static String unknownPreset(String preset) {
        return PRESET_KEY + ": unknown preset '" + preset + "' (known presets: "
                + String.join(", ", LabelSchemes.presetNames()) + ")";
    }

    /** Why a tier name is unusable, or null: it must be a DNS label and must not read as a tier number. */
    static String tierNameProblem(String name) {
        if (name.length() > 63 || !HyperNodeNames.dnsLabel(name)) {
            return "must be lower-case letters, digits and '-', start and end with a letter or digit, at most 63 characters";
        }
        if (name.chars().allMatch(Character::isDigit)) {
            return "must not be a number (workloads could not tell it from a tier number)";
        }
        return null;
    }

    /** Why a label key is invalid, or null (Kubernetes qualified-name rules). */
    public static String labelKeyProblem(String key) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.length() > 253 || !HyperNodeNames.dnsSubdomain(prefix)) {
                return "the prefix must be a lower-case DNS subdomain";
            }
        }
        if (name.isEmpty() || name.length() > 63 || !LABEL_NAME.matcher(name).matches()) {
            return "the name part must be 1-63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
        }
        return null;
    }
}
