package io.topobridge.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.topobridge.cache.KindRegistry;
import io.topobridge.config.CliMode;
import io.topobridge.process.ProcessPart;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * Starts the controller process (never for a CLI run): CRD discovery first, then the Operator SDK runtime, then
 * every {@link ProcessPart} of role {@link ProcessPart.Role#EVERY_REPLICA} (caches, the webhook server), and the
 * {@link ProcessPart.Role#LEADER_ONLY} parts (the reconcilers that write) once this replica holds the Lease — at
 * once when leader election is off.
 */
@ApplicationScoped
public class ControllerLifecycle {

    private static final Logger LOG = Logger.getLogger(ControllerLifecycle.class);

    /** Leader election as configured ({@code leaseNamespace} null: the pod's own namespace). */
    public record Election(
            boolean enabled,
            String leaseName,
            String leaseNamespace,
            Duration leaseDuration,
            Duration renewDeadline,
            Duration retryPeriod) {}

    @Inject
    KindRegistry kinds;

    @Inject
    Operator operator;

    @Inject
    Instance<ProcessPart> parts;

    @Inject
    KubernetesClient client;

    @Inject
    Election election;

    private volatile boolean started;
    private volatile boolean leading;
    private volatile boolean follower;
    private volatile CompletableFuture<?> electing;

    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (CliMode.active()) {
            return;
        }
        kinds.seed();
        if (!operator.getRuntimeInfo().isStarted()) {
            operator.start();
        }
        start(ProcessPart.Role.EVERY_REPLICA);
        started = true;
        if (election.enabled()) {
            follower = true;
            electing = elect();
        } else {
            startLeaderParts();
        }
    }

    private void start(ProcessPart.Role role) {
        for (ProcessPart part : parts) {
            if (part.role() == role) {
                LOG.infof(
                        "starting %s (%s)",
                        part.name(), role == ProcessPart.Role.LEADER_ONLY ? "leader" : "every replica");
                part.start();
            }
        }
    }

    private void startLeaderParts() {
        start(ProcessPart.Role.LEADER_ONLY);
        follower = false;
        leading = true;
    }

    private CompletableFuture<?> elect() {
        var le = election;
        String namespace = le.leaseNamespace() != null
                ? le.leaseNamespace()
                : Objects.requireNonNullElse(System.getenv("POD_NAMESPACE"), "default");
        String identity = Objects.requireNonNullElse(System.getenv("HOSTNAME"), "topobridge") + "-" + UUID.randomUUID();
        LOG.infof("leader election: waiting for Lease %s/%s as %s", namespace, le.leaseName(), identity);
        return client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName("topobridge")
                        .withLock(new LeaseLock(namespace, le.leaseName(), identity))
                        .withLeaseDuration(le.leaseDuration())
                        .withRenewDeadline(le.renewDeadline())
                        .withRetryPeriod(le.retryPeriod())
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> {
                                    LOG.infof("leader election: %s leads, starting the reconcilers", identity);
                                    startLeaderParts();
                                },
                                () -> {
                                    if (leading) {
                                        // a former leader's caches and queues are not trusted: restart clean
                                        LOG.error(
                                                "leader election: leadership lost, exiting so a fresh process takes over");
                                        Quarkus.asyncExit(1);
                                    }
                                },
                                leader -> LOG.infof("leader election: current leader is %s", leader)))
                        .build())
                .build()
                .start();
    }

    /**
     * The reconcilers stop before the Lease is released, so the next leader never writes while this one still does;
     * every replica's parts stop last, the webhook server draining its calls while the next leader takes over.
     */
    void onStop(@Observes ShutdownEvent event) {
        if (started && leading) {
            stop(ProcessPart.Role.LEADER_ONLY);
        }
        // a release asked for, not leadership lost: no exit on the way out
        leading = false;
        if (electing != null) {
            electing.cancel(true);
        }
        if (started) {
            stop(ProcessPart.Role.EVERY_REPLICA);
        }
    }

    private void stop(ProcessPart.Role role) {
        for (ProcessPart part : parts) {
            if (part.role() == role) {
                try {
                    part.stop();
                } catch (RuntimeException e) {
                    LOG.warnf(e, "stopping %s", part.name());
                }
            }
        }
    }

    /** True once this replica's parts have been started (the reconcilers too, unless it is a follower). */
    public boolean started() {
        return started;
    }

    /** True while this replica waits for leadership (it serves webhooks and health, runs no reconciler). */
    public boolean follower() {
        return follower;
    }

    /** The parts running in this process: every replica's, and the leader's while this replica leads. */
    public List<ProcessPart> running() {
        return parts.stream()
                .filter(p -> p.role() == ProcessPart.Role.EVERY_REPLICA || leading)
                .toList();
    }

    public List<ProcessPart> parts() {
        return parts.stream().toList();
    }
}
