package io.topobridge.wiring;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.topobridge.config.CliMode;
import io.topobridge.config.TopobridgeConfig;
import io.topobridge.controller.ControllerLifecycle;
import io.topobridge.controller.topology.TopologyController;
import io.topobridge.controller.workload.WorkloadController;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.reconcile.ReconcileSettings;
import io.topobridge.webhook.WebhookSettings;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Objects;

/**
 * Maps the {@code topobridge.*} configuration once into the immutable settings records the core and the
 * controllers take in their constructors; nothing else reads the configuration mapping. Each mapping is a plain
 * function, so an invalid value throws with one message naming the key, and the controller refuses to start on one
 * (type errors are already reported by the config mapping itself; this checks what types cannot).
 */
@ApplicationScoped
public class SettingsProducer {

    private final TopobridgeConfig config;

    public SettingsProducer(TopobridgeConfig config) {
        this.config = config;
    }

    /** The wall clock: the edges read the time from it and hand it to the core, which never reads a clock itself. */
    @Produces
    @Singleton
    public java.time.Clock clock() {
        return java.time.Clock.systemUTC();
    }

    @Produces
    @Singleton
    public TopologySettings topology() {
        return topology(null, null);
    }

    /** Topology settings with optional command-line overrides; an invalid value throws with one message. */
    public TopologySettings topology(String presetOverride, List<String> tiersOverride) {
        if (tiersOverride != null && !tiersOverride.isEmpty()) {
            // command-line tiers replace the configured preset; a preset given next to them is still an error
            return TopologySettings.parse(
                    presetOverride == null ? TopologySettings.AUTO : presetOverride, tiersOverride);
        }
        if (presetOverride != null) {
            return TopologySettings.parse(presetOverride, List.of());
        }
        return TopologySettings.parse(
                config.topology().preset(), config.topology().tiers().orElse(List.of()));
    }

    @Produces
    @Singleton
    public WorkloadSettings workloads() {
        var workloads = config.workloads();
        return new WorkloadSettings(
                workloads.defaultQueue(),
                WorkloadSettings.UnlistedQueues.parse(workloads.queuesWithoutAllowList()),
                workloads.maxPodgroupsPerNamespace(),
                workloads.autoTierMinDomains(),
                workloads.autoWaitForRoom(),
                workloads.maxGangsPerWorkload(),
                io.topobridge.core.node.DeviceClasses.parse(workloads.draDeviceClasses()));
    }

    /** What one namespace's PodGroups may reserve together, besides its ResourceQuotas. */
    @Produces
    @Singleton
    public io.topobridge.core.workload.changes.Reservations.Settings reservations() {
        var workloads = config.workloads();
        return new io.topobridge.core.workload.changes.Reservations.Settings(
                io.topobridge.core.workload.changes.Reservations.Settings.parseShare(workloads.maxNamespaceShare()),
                io.topobridge.core.workload.changes.Reservations.Settings.parseFixed(
                        workloads.maxNamespaceReservation().orElse(List.of())));
    }

    /** How the reconciler treats namespaces and groups (render honours the same rules, restarts aside). */
    public ReconcileSettings reconcile() {
        return reconcile(DomainLossRestarts.Settings.DEFAULTS);
    }

    private ReconcileSettings reconcile(DomainLossRestarts.Settings restarts) {
        var workloads = config.workloads();
        return new ReconcileSettings(
                workloads.requireNamespaceOptIn(),
                config.admission().namespaceLabel(),
                workloads.groupAssembly(),
                restarts);
    }

    /** The accelerator resources ({@code topobridge.workloads.accelerator-resources}). */
    @Produces
    @Singleton
    public Accelerators accelerators() {
        return Accelerators.parse(config.workloads().acceleratorResources());
    }

    @Produces
    @Singleton
    public AdmissionSettings admission() {
        return new AdmissionSettings(config.admission().schedulerName());
    }

    /** Webhook server, registration and TLS settings; {@code namespace} is where the controller runs. */
    public WebhookSettings webhook(String namespace) {
        return WebhookSettings.from(config.admission(), config.workloads().requireNamespaceOptIn(), namespace);
    }

    @Produces
    @Singleton
    public WebhookSettings webhook(KubernetesClient client) {
        return webhook(Objects.requireNonNullElse(client.getNamespace(), "default"));
    }

    @Produces
    @Singleton
    public TopologyController.Options topologyController() {
        var topology = config.topology();
        var volcano = config.volcano();
        return new TopologyController.Options(
                topology.enabled(),
                topology(),
                topology.debounce(),
                topology.maxDelay(),
                volcano.schedulerConfigNamespace(),
                volcano.schedulerConfigName(),
                volcano.schedulerConfigKey(),
                accelerators());
    }

    @Produces
    @Singleton
    public WorkloadController.Options workloadController() {
        var workloads = config.workloads();
        return new WorkloadController.Options(
                workloads.enabled(),
                workloads.debounce(),
                workloads.maxDelay(),
                workloads.resync(),
                reconcile(new DomainLossRestarts.Settings(
                        workloads.domainLossGrace(), workloads.maxConcurrentRestarts())));
    }

    @Produces
    @Singleton
    public io.topobridge.diagnosis.DoctorGatherer.Settings doctor(WebhookSettings webhook) {
        var volcano = config.volcano();
        return new io.topobridge.diagnosis.DoctorGatherer.Settings(
                topology(),
                volcano.schedulerConfigNamespace(),
                volcano.schedulerConfigName(),
                volcano.schedulerConfigKey(),
                config.workloads().defaultQueue(),
                webhook,
                accelerators());
    }

    /** How long a gang waits before its workload gets an Event saying why. */
    @Produces
    @Singleton
    public io.topobridge.diagnosis.GangEvents.Options gangEvents() {
        java.time.Duration after = config.diagnosis().pendingEventAfter();
        if (after.compareTo(java.time.Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "topobridge.diagnosis.pending-event-after=" + after + " must be at least 1s");
        }
        return new io.topobridge.diagnosis.GangEvents.Options(after);
    }

    /** Findings kept per object and the rate of their Events. */
    @Produces
    @Singleton
    public io.topobridge.findings.FindingsSettings findings() {
        var events = config.events();
        return new io.topobridge.findings.FindingsSettings(
                config.findings().maxPerObject(),
                events.qps(),
                events.burst(),
                events.perObjectQps(),
                events.perObjectBurst(),
                events.queueSize());
    }

    /** Who may read the HTTP port. */
    @Produces
    @Singleton
    public io.topobridge.api.auth.HttpAuthSettings httpAuth() {
        return io.topobridge.api.auth.HttpAuthSettings.from(config.http().auth());
    }

    @Produces
    @Singleton
    public ControllerLifecycle.Election election() {
        var le = config.leaderElection();
        return new ControllerLifecycle.Election(
                le.enabled(),
                le.leaseName(),
                le.leaseNamespace().filter(ns -> !ns.isBlank()).orElse(null),
                le.leaseDuration(),
                le.renewDeadline(),
                le.retryPeriod());
    }

    void onStart(@Observes @Priority(1) StartupEvent event) {
        if (!CliMode.active()) {
            // the CLI validates its own overrides and answers with a usage error
            validate();
        }
    }

    /** Maps every setting, so that a bad value is refused at start-up rather than when first used. */
    public void validate() {
        try {
            topology();
            workloads();
            reservations();
            reconcile();
            accelerators();
            admission();
            webhook("default");
            topologyController();
            workloadController();
            gangEvents();
            findings();
            election();
            httpAuth();
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("Invalid topobridge configuration: " + e.getMessage());
        }
    }
}
