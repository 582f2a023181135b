package io.topobridge.core.admission;

import java.util.Objects;

/** Validated admission configuration for the pure pod admission logic. */
public record AdmissionSettings(String schedulerName) {
    public AdmissionSettings {
        Objects.requireNonNull(schedulerName, "schedulerName");
    }

    public static AdmissionSettings defaults() {
        return new AdmissionSettings("volcano");
    }
}
