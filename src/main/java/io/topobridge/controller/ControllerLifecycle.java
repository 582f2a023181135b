package io.topobridge.controller;

import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.topobridge.cli.CliMode;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Starts the controller process (never for a CLI run): CRD discovery first, then the Operator SDK
 * runtime, then every {@link ManagedController}.
 */
@ApplicationScoped
public class ControllerLifecycle {

    private static final Logger LOG = Logger.getLogger(ControllerLifecycle.class);

    @Inject
    KindRegistry kinds;

    @Inject
    Operator operator;

    @Inject
    Instance<ManagedController> controllers;

    private volatile boolean started;

    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (CliMode.active()) {
            return;
        }
        kinds.seed();
        if (!operator.getRuntimeInfo().isStarted()) {
            operator.start();
        }
        for (ManagedController controller : controllers) {
            LOG.infof("starting %s controller", controller.name());
            controller.start();
        }
        started = true;
    }

    void onStop(@Observes ShutdownEvent event) {
        if (!started) {
            return;
        }
        for (ManagedController controller : controllers) {
            try {
                controller.stop();
            } catch (RuntimeException e) {
                LOG.warnf(e, "stopping %s controller", controller.name());
            }
        }
    }

    public boolean started() {
        return started;
    }

    public List<ManagedController> controllers() {
        return controllers.stream().toList();
    }
}
