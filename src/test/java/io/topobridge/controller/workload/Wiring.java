package io.topobridge.controller.workload;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.apply.Applier;
import io.topobridge.apply.RecentObjects;
import io.topobridge.cache.HyperNodeCache;
import io.topobridge.cache.KindRegistry;
import io.topobridge.cache.TierSource;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.reconcile.ReconcileSettings;
import io.topobridge.findings.EventRecorder;
import io.topobridge.findings.FindingsRegistries;
import io.topobridge.findings.FindingsRegistry;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Wires the workload controller by hand, without CDI, against a given API client: the real applier (or one a
 * test gives), findings registry and event recorder, the default options unless a test gives its own.
 */
final class Wiring {

    /** The configuration defaults ({@code topobridge.workloads.*}). */
    static final WorkloadController.Options DEFAULTS = options(false, Duration.ZERO);

    /** The defaults with namespaces opting in or not, and a wait for a group's members. */
    static WorkloadController.Options options(boolean requireNamespaceOptIn, Duration groupAssembly) {
        return new WorkloadController.Options(
                true,
                Duration.ofMillis(50),
                Duration.ofSeconds(2),
                Duration.ofMinutes(10),
                new ReconcileSettings(
                        requireNamespaceOptIn,
                        "topobridge.io/enabled",
                        groupAssembly,
                        DomainLossRestarts.Settings.DEFAULTS));
    }

    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final WorkloadCaches lookup;
    final io.topobridge.cache.NodeCache nodes;
    final io.topobridge.cache.ClusterView view;
    final Applier applier;
    final EventRecorder events;
    final FindingsRegistry findings;
    final WorkloadController controller;
    volatile TierCatalog tiers;
    /** Whether the tiers count as known (the first topology pass done); tests of start-up set it false. */
    volatile boolean settled = true;
    /**
     * Whether the cluster view answers as while its nodes, pods and HyperNodes are still being listed (not ready, no
     * domains); tests of start-up set it.
     */
    volatile boolean listing;
    /** The tiers the cluster's HyperNodes have; null: the same as {@link #tiers}. */
    volatile TierCatalog inCluster;

    private Consumer<TierCatalog> tierListener = c -> {};

    Wiring(KubernetesClient client, KindRegistry kinds, TierCatalog tiers, WorkloadController.Options options) {
        this(client, kinds, tiers, options, null);
    }

    Wiring(
            KubernetesClient client,
            KindRegistry kinds,
            TierCatalog tiers,
            WorkloadController.Options options,
            Applier applier) {
        this(client, kinds, tiers, options, applier, Fixtures.defaultSettings());
    }

    Wiring(
            KubernetesClient client,
            KindRegistry kinds,
            TierCatalog tiers,
            WorkloadController.Options options,
            Applier applier,
            WorkloadSettings settings) {
        this.tiers = tiers;
        this.lookup = new WorkloadCaches(client, kinds, new RecentObjects());
        this.applier = applier != null ? applier : new Applier(client, meters, new RecentObjects());
        this.events = new EventRecorder(client, meters);
        this.findings = FindingsRegistries.writingOnPublish(events, meters);
        TierSource source = new TierSource() {
            @Override
            public TierCatalog current() {
                return Wiring.this.tiers;
            }

            @Override
            public boolean settled() {
                return Wiring.this.settled;
            }

            @Override
            public TierCatalog inCluster() {
                return Wiring.this.inCluster != null ? Wiring.this.inCluster : Wiring.this.tiers;
            }

            @Override
            public void addListener(Consumer<TierCatalog> listener) {
                tierListener = listener;
            }
        };
        this.nodes = new io.topobridge.cache.NodeCache(client);
        this.view =
                new io.topobridge.cache.ClusterView(
                        client, nodes, lookup, new HyperNodeCache(client, kinds), Accelerators.DEFAULT) {
                    @Override
                    public boolean ready() {
                        return !listing && super.ready();
                    }

                    @Override
                    public TierDomains tierDomains() {
                        return listing ? TierDomains.NONE : super.tierDomains();
                    }
                };
        this.controller = new WorkloadController(
                lookup,
                view,
                this.applier,
                findings,
                source,
                kinds,
                options,
                settings,
                io.topobridge.core.workload.reconcile.TestSettings.DEFAULT_RESERVATIONS,
                java.time.Clock.systemUTC());
    }

    /** Changes the tiers and tells the controller, as the topology controller would (its pass settles them). */
    void tiers(TierCatalog catalog) {
        tiers = catalog;
        settled = true;
        tierListener.accept(catalog);
    }

    /** Asks for a full pass now, as a change of tiers does (the periodic resync does the same). */
    void resync() {
        tierListener.accept(tiers);
    }

    /** Keys waiting for the controller's next batch. */
    int pending() {
        return controller.debouncer == null ? 0 : controller.debouncer.pendingCount();
    }

    /** Batches the controller processed so far, as its details say. */
    long passes() {
        return (Long) controller.details().get("passes");
    }

    /** Full passes the controller made so far, as its details say. */
    long fullPasses() {
        return (Long) controller.details().get("fullPasses");
    }
}
