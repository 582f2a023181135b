package io.topobridge.core.admission;

import java.util.Objects;

/**
 * Validated admission configuration for the pure pod admission logic: the scheduler name stamped on the
 * pods of a gang (Volcano schedules only pods that name it).
 */
public record AdmissionSettings(String schedulerName) {

    /** The scheduler name Kubernetes defaults a pod to; the bridge replaces it like an unset one. */
    public static final String DEFAULT_SCHEDULER = "default-scheduler";

    public AdmissionSettings {
        Objects.requireNonNull(schedulerName, "schedulerName");
        if (schedulerName.isBlank()) {
            throw new IllegalArgumentException("topobridge.admission.scheduler-name must not be empty");
        }
        if (DEFAULT_SCHEDULER.equals(schedulerName)) {
            throw new IllegalArgumentException("topobridge.admission.scheduler-name=" + schedulerName
                    + " is the Kubernetes default scheduler, which ignores PodGroups; name the Volcano scheduler");
        }
    }
}
