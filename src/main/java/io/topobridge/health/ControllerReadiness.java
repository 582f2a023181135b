package io.topobridge.health;

import io.topobridge.cache.KindRegistry;
import io.topobridge.controller.ControllerLifecycle;
import io.topobridge.process.ProcessPart;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once every part this replica runs is: on a follower the caches and the webhook server, on the leader the
 * reconcilers' first passes too. Optional workload kinds never affect readiness; the details say which kinds are
 * managed and which CRDs are absent.
 */
@Readiness
@ApplicationScoped
public class ControllerReadiness implements HealthCheck {

    @Inject
    ControllerLifecycle lifecycle;

    @Inject
    KindRegistry kinds;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("topobridge");
        // a follower must receive webhook traffic while another replica leads: it is ready once the parts every
        // replica runs (caches, webhook server) are, and the leader once its reconcilers are too
        response.withData("role", lifecycle.follower() ? "follower" : "leader");
        boolean up = lifecycle.started();
        for (ProcessPart part : lifecycle.running()) {
            response.withData(part.name() + ".ready", part.ready());
            up &= part.ready();
        }
        response.withData(
                "managedKinds",
                String.join(
                        ",", kinds.managedKinds().stream().map(k -> k.kind()).toList()));
        kinds.snapshot()
                .forEach((crd, installed) -> response.withData("crd." + crd, installed ? "installed" : "absent"));
        return response.status(up).build();
    }
}
