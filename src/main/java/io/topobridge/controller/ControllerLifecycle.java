package io.topobridge.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.topobridge.cli.CliMode;
import io.topobridge.config.TopobridgeConfig;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * Starts the controller process (never for a CLI run): CRD discovery first, then the Operator SDK
 * runtime, then every {@link ManagedController} (after winning a Lease when leader election is on).
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

    @Inject
    KubernetesClient client;

    @Inject
    TopobridgeConfig config;

    private volatile boolean started;
    private volatile boolean follower;
    private volatile CompletableFuture<?> election;

    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (CliMode.active()) {
            return;
        }
        kinds.seed();
        if (!operator.getRuntimeInfo().isStarted()) {
            operator.start();
        }
        if (config.leaderElection().enabled()) {
            follower = true;
            election = elect();
        } else {
            startControllers();
        }
    }

    private void startControllers() {
        for (ManagedController controller : controllers) {
            LOG.infof("starting %s controller", controller.name());
            controller.start();
        }
        follower = false;
        started = true;
    }

    private CompletableFuture<?> elect() {
        var le = config.leaderElection();
        String namespace = le.leaseNamespace()
                .orElse(Objects.requireNonNullElse(System.getenv("POD_NAMESPACE"), "default"));
        String identity = Objects.requireNonNullElse(System.getenv("HOSTNAME"), "topobridge") + "-" + UUID.randomUUID();
        LOG.infof("leader election: waiting for Lease %s/%s as %s", namespace, le.leaseName(), identity);
        return client.leaderElector().withConfig(new LeaderElectionConfigBuilder()
                        .withName("topobridge")
                        .withLock(new LeaseLock(namespace, le.leaseName(), identity))
                        .withLeaseDuration(le.leaseDuration())
                        .withRenewDeadline(le.renewDeadline())
                        .withRetryPeriod(le.retryPeriod())
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> {
                                    LOG.infof("leader election: %s leads, starting controllers", identity);
                                    startControllers();
                                },
                                () -> {
                                    if (started) {
                                        // a former leader's caches and queues are not trusted: restart clean
                                        LOG.error("leader election: leadership lost, exiting so a fresh process takes over");
                                        Quarkus.asyncExit(1);
                                    }
                                },
                                leader -> LOG.infof("leader election: current leader is %s", leader)))
                        .build())
                .build().start();
    }

    void onStop(@Observes ShutdownEvent event) {
        if (election != null) {
            election.cancel(true);
        }
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

    /** True while this replica waits for leadership (it serves webhooks and health, runs no controller). */
    public boolean follower() {
        return follower;
    }

    public List<ManagedController> controllers() {
        return controllers.stream().toList();
    }
}
