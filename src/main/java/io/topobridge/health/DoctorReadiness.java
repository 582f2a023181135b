package io.topobridge.health;

import io.topobridge.core.diagnosis.DoctorCheck;
import io.topobridge.diagnosis.DoctorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Locale;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The doctor's last result as readiness details ({@code doctor: ok|warning|failure} and each check that is not ok).
 * Always up: a problem of the installation is reported, it is no reason to stop serving the webhooks.
 */
@Readiness
@ApplicationScoped
public class DoctorReadiness implements HealthCheck {

    @Inject
    DoctorService doctor;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("topobridge-doctor").up();
        DoctorService.Run run = doctor.last();
        if (run == null) {
            return response.withData("doctor", "not run yet").build();
        }
        response.withData("doctor", DoctorCheck.worst(run.checks()).name().toLowerCase(Locale.ROOT));
        for (DoctorCheck c : run.checks()) {
            if (c.status() != DoctorCheck.Status.OK) {
                response.withData(
                        "doctor." + c.name(), c.status().name().toLowerCase(Locale.ROOT) + ": " + c.message());
            }
        }
        return response.build();
    }
}
