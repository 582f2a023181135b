package io.topobridge.health;

import io.topobridge.controller.ControllerLifecycle;
import io.topobridge.controller.KindRegistry;
import io.topobridge.controller.ManagedController;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once every controller has done its first pass. Optional workload kinds never affect readiness; the
 * details say which kinds are managed and which CRDs are absent.
 */
@Readiness
@ApplicationScoped
public class ControllerReadiness implements HealthCheck {

    private final ControllerLifecycle lifecycle;
    private final KindRegistry kinds;

    public ControllerReadiness(ControllerLifecycle lifecycle, KindRegistry kinds) {
        this.lifecycle = lifecycle;
        this.kinds = kinds;
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("topobridge");
        if (lifecycle.follower()) {
            // a follower serves the webhooks; it must receive traffic while another replica leads
            response.withData("role", "follower");
            return response.up().build();
        }
        boolean up = lifecycle.started();
        for (ManagedController c : lifecycle.controllers()) {
            response.withData(c.name() + ".ready", c.ready());
            up &= c.ready();
        }
        response.withData("managedKinds", String.join(",", kinds.managedKinds().stream().map(k -> k.kind()).toList()));
        kinds.snapshot().forEach((crd, installed) -> response.withData("crd." + crd, installed ? "installed" : "absent"));
        return response.status(up).build();
    }
}
