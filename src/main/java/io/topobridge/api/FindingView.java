package io.topobridge.api;

import io.topobridge.core.finding.Finding;

/** JSON shape of a finding in the REST API. */
public record FindingView(String severity, String reason, String kind, String namespace, String name, String message) {
    public static FindingView of(Finding f) {
        return new FindingView(f.severity().name(), f.reason().reason(), f.object().kind(), f.object().namespace(),
                f.object().name(), f.message());
    }
}
