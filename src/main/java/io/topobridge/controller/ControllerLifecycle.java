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
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
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

    /** Leader election as configured ({@code leaseNamespace} null: the pod's own namespace). */
    public record Election(boolean enabled, String leaseName, String leaseNamespace, Duration leaseDuration,
            Duration renewDeadline, Duration retryPeriod) {
    }

    private final KindRegistry kinds;
    private final Operator operator;
    private final Instance<ManagedController> controllers;
    private final KubernetesClient client;
    private final Election election;

    private volatile boolean started;
    private volatile boolean follower;
    private volatile CompletableFuture<?> electing;

    public ControllerLifecycle(KindRegistry kinds, Operator operator, Instance<ManagedController> controllers,
            KubernetesClient client, Election election) {
        this.kinds = kinds;
        this.operator = operator;
        this.controllers = controllers;
        this.client = client;
        this.election = election;
    }

    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (CliMode.active()) {
            return;
        }
        kinds.seed();
        if (!operator.getRuntimeInfo().isStarted()) {
            operator.start();
        }
        if (election.enabled()) {
            follower = true;
            electing = elect();
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
        var le = election;
        String namespace = le.leaseNamespace() != null ? le.leaseNamespace()
                : Objects.requireNonNullElse(System.getenv("POD_NAMESPACE"), "default");
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
        if (electing != null) {
            electing.cancel(true);
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
