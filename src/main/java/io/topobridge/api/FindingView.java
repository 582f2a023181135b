package io.topobridge.api;

import io.topobridge.core.finding.Finding;

/** JSON shape of a finding in the REST API ({@code key} tells apart findings of one reason on one object). */
public record FindingView(
        String severity, String reason, String kind, String namespace, String name, String key, String message) {
    public static FindingView of(Finding f) {
        return new FindingView(
                f.severity().name(),
                f.reason().reason(),
                f.object().kind(),
                f.object().namespace(),
                f.object().name(),
                f.key(),
                f.message());
    }
}
