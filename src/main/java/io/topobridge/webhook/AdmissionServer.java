package io.topobridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.apply.Applier;
import io.topobridge.apply.RecentObjects;
import io.topobridge.cache.ClusterView;
import io.topobridge.cache.TierSource;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.Topobridge;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.process.PeriodicTask;
import io.topobridge.process.ProcessPart;
import io.topobridge.tls.CertificateStore;
import io.topobridge.tls.ServingCertificate;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Runs admission in the controller process: makes sure the serving certificate exists and is fresh (its
 * Secret, shared by all replicas), serves the webhooks over HTTPS with it, keeps the two webhook
 * configurations (and their {@code caBundle}) applied, and re-checks all of that every
 * {@code tls.check-interval}, reloading a certificate renewed here, by another replica or by cert-manager.
 * Ready once the webhooks are served and registered.
 */
@ApplicationScoped
public class AdmissionServer implements ProcessPart {

    private static final Logger LOG = Logger.getLogger(AdmissionServer.class);
    private static final Duration FIRST_RETRY = Duration.ofSeconds(2);
    /**
     * How long a stopping replica keeps answering after the last call came: kube-proxy applies an endpoint change
     * within about a second (its default minimum sync period).
     */
    static final Duration DRAIN_QUIET = Duration.ofSeconds(1);

    @Inject
    KubernetesClient client;

    @Inject
    Applier applier;

    @Inject
    MeterRegistry meters;

    @Inject
    Vertx vertx;

    @Inject
    Instance<WorkloadLookup> lookups;

    @Inject
    Instance<ClusterView> views;
    /** The topology controller's tiers (the configured ones until it publishes its own). */
    @Inject
    TierSource tiers;

    @Inject
    WebhookSettings webhook;

    @Inject
    WorkloadSettings workloads;

    @Inject
    AdmissionSettings admission;

    private volatile CertificateStore store;
    private volatile WebhookServer server;
    private volatile ScheduledExecutorService scheduler;
    private volatile boolean ready;
    private volatile Set<String> servedPaths = Set.of();
    /** The least time each warm-up review is given, whatever the API server's own timeout. */
    static final int WARM_UP_TIMEOUT_SECONDS = 10;

    private volatile long warmUpMillis = -1;
    private volatile Map<String, Long> warmUpAnswers = Map.of();
    private volatile String lastError;
    // only the admission scheduler's single thread reads and writes it (bootstrap retries)
    private Duration retry = FIRST_RETRY;

    @Override
    public String name() {
        return "admission";
    }

    @Override
    public void start() {
        if (!webhook.enabled()) {
            LOG.info("admission webhooks are disabled (topobridge.admission.enabled=false)");
            if (webhook.manageConfigurations()) {
                removeConfigurations();
            }
            ready = true;
            return;
        }
        var translator =
                new WorkloadTranslator(workloads, io.topobridge.core.kinds.Kinds.adapters(), Clock.systemUTC());
        var context = new AdmissionWebhook.Context(
                tiers::current,
                lookup(),
                client.getKubernetesSerialization(),
                Set.copyOf(WebhookConfigurations.excludedNamespaces(webhook)));
        List<AdmissionWebhook> webhooks = new ArrayList<>();
        webhooks.add(new PodMutator(new PodAdmission(admission, translator::tie), context));
        if (webhook.validateWorkloads()) {
            webhooks.add(new WorkloadValidator(translator::validate, context));
        }
        if (webhook.adoptPodGroups()) {
            webhooks.add(new PodGroupMutator(translator, context));
        }
        servedPaths = webhooks.stream().map(AdmissionWebhook::path).collect(java.util.stream.Collectors.toSet());
        server = new WebhookServer(
                vertx,
                new ObjectMapper(),
                meters,
                webhooks,
                // half the API server's wait: a warning while answers still arrive in time
                Duration.ofMillis(webhook.timeoutSeconds() * 500L),
                webhook.limits(),
                webhook.requestDeadline());
        Gauge.builder(
                        "topobridge.admission.certificate.expiry",
                        this,
                        s -> s.serving() == null
                                ? Double.NaN
                                : Duration.between(Instant.now(), s.serving().notAfter())
                                        .toSeconds())
                .baseUnit("seconds")
                .description("Seconds until the served webhook certificate expires (alert well before zero)")
                .register(meters);
        store = new CertificateStore(client, webhook.tls(), Clock.systemUTC());
        scheduler = PeriodicTask.daemonTimer("topobridge-admission");
        scheduler.execute(this::bootstrap);
    }

    private void bootstrap() {
        try {
            check();
            long every = webhook.checkInterval().toMillis();
            scheduler.scheduleWithFixedDelay(this::checkQuietly, every, every, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            LOG.warnf("admission webhooks are not served yet, retrying in %s: %s", retry, e.getMessage());
            lastError = e.getMessage();
            scheduler.schedule(this::bootstrap, retry.toMillis(), TimeUnit.MILLISECONDS);
            retry = Collections.min(List.of(retry.multipliedBy(2), webhook.checkInterval()));
        }
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            lastError = e.getMessage();
            LOG.warnf("admission check failed (the webhooks keep serving the current certificate): %s", e.getMessage());
        }
    }

    /**
     * One pass: renew or reload the certificate when needed, start the server on the first pass, and apply the
     * webhook configurations when they differ from what the bridge wants.
     */
    public synchronized void check() {
        ServingCertificate certificate = store.ensure();
        if (!server.running()) {
            server.start(webhook.host(), webhook.port(), certificate);
            warmUp();
        } else if (!certificate.sameAs(server.serving())) {
            server.updateCertificate(certificate);
        }
        if (webhook.manageConfigurations()) {
            applyConfigurations(certificate.caBundlePem());
        }
        lastError = null;
        ready = true;
    }

    /**
     * Before the webhooks are registered (on every start: a configuration left by an earlier run sends requests as
     * soon as the port is open, and this runs right after it opens), one review per path through the server itself;
     * a failure is logged and never holds the webhooks back.
     */
    private void warmUp() {
        long start = System.nanoTime();
        Map<String, Long> answers = server.warmUp(
                webhook.host(),
                warmUpReviews(new ObjectMapper(), servedPaths),
                // nothing waits on the warm-up but the registration: a slow first answer (a loaded node, a cold JIT)
                // is still worth paying here rather than in the API server's first reviews
                Duration.ofSeconds(Math.max(WARM_UP_TIMEOUT_SECONDS, webhook.timeoutSeconds())));
        warmUpMillis = (System.nanoTime() - start) / 1_000_000;
        warmUpAnswers = Map.copyOf(answers);
        if (answers.values().stream().anyMatch(ms -> ms < 0)) {
            LOG.warnf(
                    "the webhooks' warm-up did not get every answer (%s ms by path, -1: none); serving anyway",
                    answers);
        } else {
            LOG.infof(
                    "webhooks warmed up in %d ms before registration (first answers in ms: %s)", warmUpMillis, answers);
        }
    }

    /**
     * One CREATE per served path ({@code warm-up-reviews.json}, each given a uid of its own) in a namespace made up
     * for the purpose ({@code topobridge-warm-up}, where a live read of the pod's owner finds nothing): each takes the
     * path a real request takes (parsing, the owner looked up in the caches and read live, the patch computed and
     * serialized) and ends untouched, its object naming no {@code topobridge.io/} key and no existing owner (dry-run).
     */
    private static Map<String, byte[]> warmUpReviews(ObjectMapper mapper, Set<String> paths) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (InputStream in = AdmissionServer.class.getResourceAsStream("warm-up-reviews.json")) {
            for (Map.Entry<String, JsonNode> review : mapper.readTree(in).properties()) {
                if (paths.contains(review.getKey())) {
                    ((ObjectNode) review.getValue().get("request"))
                            .put("uid", UUID.randomUUID().toString());
                    out.put(review.getKey(), mapper.writeValueAsBytes(review.getValue()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private void applyConfigurations(String caBundlePem) {
        var registration = client.admissionRegistration().v1();
        String name = webhook.configurationName();
        applier.apply(
                WebhookConfigurations.mutating(webhook, caBundlePem),
                registration.mutatingWebhookConfigurations().withName(name).get());
        ValidatingWebhookConfiguration validating =
                registration.validatingWebhookConfigurations().withName(name).get();
        if (webhook.validateWorkloads()) {
            applier.apply(WebhookConfigurations.validating(webhook, caBundlePem), validating);
        } else if (validating != null) {
            applier.delete(validating, Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY);
        }
    }

    /** A disabled bridge leaves no webhook of its own registered (the API server would call a server that is not there). */
    private void removeConfigurations() {
        try {
            var registration = client.admissionRegistration().v1();
            String name = webhook.configurationName();
            for (HasMetadata existing : Arrays.asList(
                    registration.mutatingWebhookConfigurations().withName(name).get(),
                    registration
                            .validatingWebhookConfigurations()
                            .withName(name)
                            .get())) {
                if (existing != null) {
                    applier.delete(existing, Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY);
                }
            }
        } catch (RuntimeException e) {
            LOG.warnf("cannot remove the webhook configurations %s: %s", webhook.configurationName(), e.getMessage());
        }
    }

    /**
     * Stops serving once calls have stopped coming for {@link #DRAIN_QUIET} (the Service's endpoints updated, the API
     * server's kept-alive connections closed one answer each), waiting at most as long as the API server waits for an
     * answer and that quiet time again: a call broken by the stop of a replica admits its pod untied.
     */
    @Override
    public void stop() {
        ready = false;
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (server != null) {
            server.stop(
                    DRAIN_QUIET, Duration.ofSeconds(webhook.timeoutSeconds()).plus(DRAIN_QUIET));
        }
    }

    @Override
    public boolean ready() {
        return ready;
    }

    @Override
    public Map<String, Object> details() {
        Map<String, Object> out = new LinkedHashMap<>();
        WebhookServer running = server;
        if (running != null && running.running()) {
            out.put("port", running.port());
            out.put("certificateNotAfter", running.serving().notAfter().toString());
        }
        if (warmUpMillis >= 0) {
            out.put("warmUpMillis", warmUpMillis);
            out.put("warmUpAnswerMillis", new java.util.TreeMap<>(warmUpAnswers));
        }
        if (lastError != null) {
            out.put("error", lastError);
        }
        return out;
    }

    /** The certificate served now (null before the first successful check). */
    public ServingCertificate serving() {
        WebhookServer running = server;
        return running == null ? null : running.serving();
    }

    private WorkloadLookup lookup() {
        if (lookups.isResolvable()) {
            WorkloadLookup cached = lookups.get();
            RecentObjects recent = cached instanceof WorkloadCaches caches ? caches.recent() : new RecentObjects();
            WorkloadLookup read = cached.withRecent(new ReadThrough(client, recent));
            if (views.isResolvable()) {
                // highest-tier: auto decides from the domains, as the controller does
                ClusterView view = views.get();
                return read.withDomains(view::recentTierDomains);
            }
            return read;
        }
        LOG.warn("no workload lookup is available: every pod passes admission untouched");
        return new InMemoryLookup(List.of());
    }
}
