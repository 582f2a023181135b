package io.topobridge.core.finding;

/** A finding's machine-readable reason: CamelCase, used as the Kubernetes Event reason and metric label. */
public interface Reason {
    String name();

    /** CamelCase form of the enum constant ({@code MISSING_TIER_LABELS} becomes {@code MissingTierLabels}). */
    default String reason() {
        var out = new StringBuilder();
        for (String part : name().split("_")) {
            if (!part.isEmpty()) {
                out.append(part.charAt(0)).append(part.substring(1).toLowerCase(java.util.Locale.ROOT));
            }
        }
        return out.toString();
    }
}
