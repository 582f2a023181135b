package io.topobridge.e2e;

import static io.topobridge.e2e.HelmInstallE2E.FULLNAME;
import static io.topobridge.e2e.HelmInstallE2E.NS;
import static io.topobridge.e2e.HelmInstallE2E.RELEASE;
import static io.topobridge.e2e.HelmInstallE2E.USER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.topobridge.e2e.AuditLog.Write;
import io.topobridge.testing.HelmChart;
import io.topobridge.testing.HelmChart.Rendered;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import io.topobridge.testing.wrappers.PodWrapper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code helm upgrade} of a running release, and {@code helm rollback}, on the real cluster: the chart of an earlier
 * commit ({@link PreviousRelease}) installed with two replicas electing a leader and gangs running (pods tied to their
 * PodGroups and bound by Volcano), then upgraded to this build's chart and application while pods are being created
 * (a gang's pods deleted and made again by their ReplicaSet, another gang scaled up at every step of the rollout),
 * then rolled back the same way. Through both rollouts every pod is created tied to its gang, the bridge writes no
 * PodGroup or HyperNode with a spec it already has (audit log), and the webhooks answer every admission probe; the
 * figures of each rollout are printed.
 */
@ExtendWith(RealClusterExtension.class)
class HelmUpgradeE2E {

    static final String APPS = "upgrade-e2e";
    /** Values both versions' schemas know: the chart's two replicas (so leader election), namespaces opting in. */
    static final Map<String, Object> VALUES = Map.of("replicaCount", 2, "workloads.requireNamespaceOptIn", true);

    /** A gang that keeps its size: its pods are deleted one by one and made again by its ReplicaSet. */
    static final String STEADY = "steady";
    /** A gang scaled up by one at every step of each rollout. */
    static final String GROWING = "growing";

    static final String BAD_TIER = "no-such-tier";
    private static final Duration TIMEOUT = Duration.ofSeconds(180);

    private final RealCluster cluster;
    private final KubernetesClient admin;

    HelmUpgradeE2E(RealCluster cluster) {
        this.cluster = cluster;
        this.admin = cluster.client();
    }

    /** What one rollout did, as measured. */
    record Figures(
            String name,
            Duration rollout,
            int podsCreated,
            int podsTied,
            List<String> untied,
            Map<String, Integer> podGroupWrites,
            List<String> podGroupRewrites,
            int hyperNodeWrites,
            int probeTies,
            int probeRefusals,
            List<String> probeFailures,
            List<String> failedOpen,
            List<Instant> abruptStops,
            Map<String, Integer> bridgeWrites) {}

    @Test
    void upgradeAndRollbackCreateNoPodUntiedRewriteNoPodGroupAndKeepTheWebhooksAnswering() {
        PreviousRelease previous = PreviousRelease.get();
        String old = "previous-" + previous.shortCommit();
        System.out.printf(
                "HelmUpgrade: previous release = commit %s, chart %s (%s)%n",
                previous.commit(),
                previous.chartVersion(),
                previous.built().isZero()
                        ? "from the cache"
                        : "built in " + previous.built().toSeconds() + " s");
        Rendered before = HelmChart.render(previous.chart(), RELEASE, NS, VALUES);
        Rendered current = HelmChart.render(RELEASE, NS, VALUES);
        assertThat(before.controllerEnv()).containsEntry("TOPOBRIDGE_LEADER_ELECTION_ENABLED", "true");
        assertThat(current.controllerEnv()).containsEntry("TOPOBRIDGE_LEADER_ELECTION_ENABLED", "true");

        cluster.stopBridge();
        Examples.ensureNodes(admin);
        forgetWhatTheBridgeMade(before);
        install(before);
        Path kubeconfig = cluster.writeKubeconfig("serviceaccount-" + FULLNAME, RealCluster.token(admin, NS, FULLNAME));
        try (TestNamespace apps = TestNamespace.forCase(APPS).open(cluster);
                ChartReplicas replicas = new ChartReplicas(cluster, kubeconfig)) {
            replicas.start(old, previous.jar(), before);
            replicas.start(old, previous.jar(), before);
            awaitLeader(before, replicas);
            gang(STEADY, 2);
            gang(GROWING, 1);
            awaitGangs(Map.of(STEADY, 2, GROWING, 1));

            Figures upgrade = rollout("upgrade", replicas, before, current, "current", null, 5);
            Figures rollback = rollout("rollback", replicas, current, before, old, previous.jar(), 9);
            for (Figures f : List.of(upgrade, rollback)) {
                print(f, previous);
                assertUndisturbed(f);
            }
        } finally {
            uninstall(before);
        }
    }

    /**
     * One rollout: {@code helm upgrade} (or rollback) from {@code from} to {@code to} while the steady gang's pods are
     * deleted and made again and the growing gang is scaled up at every step, to {@code growTo} pods in the end.
     */
    private Figures rollout(
            String name, ChartReplicas replicas, Rendered from, Rendered to, String version, Path jar, int growTo) {
        cluster.awaitQuiet(
                USER, w -> w.user().equals(USER) && !w.resource().equals("leases"), Duration.ofSeconds(3), TIMEOUT);
        Map<String, JsonNode> specs = podGroupSpecs();
        long mark = cluster.audit().mark();
        long start = System.nanoTime();
        Duration took;
        try (PodRecorder created = new PodRecorder();
                AdmissionProbe probe = probe();
                Repeating churn = new Repeating("upgrade-churn", Duration.ofMillis(1500), this::churn)) {
            helmUpgrade(from, to);
            replicas.roll(version, jar, to, this::grow);
            took = Duration.ofNanos(System.nanoTime() - start);
            churn.close();
            scale(GROWING, growTo);
            repairUntied(created, Map.of(STEADY, 2, GROWING, growTo));
            awaitGangs(Map.of(STEADY, 2, GROWING, growTo));
            awaitLeader(to, replicas);
            probe.close();
            created.close();
            cluster.awaitQuiet(
                    USER, w -> w.user().equals(USER) && !w.resource().equals("leases"), Duration.ofSeconds(4), TIMEOUT);
            return figures(name, took, created, probe, mark, specs, replicas.takeAbruptStops());
        }
    }

    private Figures figures(
            String name,
            Duration took,
            PodRecorder created,
            AdmissionProbe probe,
            long mark,
            Map<String, JsonNode> specs,
            List<Instant> abruptStops) {
        List<Write> writes = cluster.audit().writesSince(mark, w -> w.user().equals(USER) && w.succeeded());
        Map<String, Integer> byResource = new TreeMap<>();
        writes.forEach(w -> byResource.merge(w.resource(), 1, Integer::sum));
        Map<String, Integer> podGroupWrites = new TreeMap<>();
        List<String> rewrites = new ArrayList<>();
        Map<String, JsonNode> last = new HashMap<>(specs);
        for (Write w : writes) {
            if (!w.resource().equals("podgroups")) {
                continue;
            }
            podGroupWrites.merge(w.name(), 1, Integer::sum);
            JsonNode spec = w.requestObject() == null ? null : w.requestObject().path("spec");
            if (w.name().startsWith("tb-deploy-" + STEADY) || (spec != null && owned(spec, last.get(w.name())))) {
                rewrites.add(w + " " + spec);
            }
            if (spec != null) {
                last.put(w.name(), spec);
            }
        }
        return new Figures(
                name,
                took,
                created.pods.size(),
                created.pods.size() - created.untied().size(),
                created.untied(),
                podGroupWrites,
                rewrites,
                byResource.getOrDefault("hypernodes", 0),
                probe.podTies(),
                probe.workloadRefusals(),
                probe.failures(),
                cluster.audit().failedOpenSince(mark, APPS),
                abruptStops,
                byResource);
    }

    /** Whether every field {@code written} sets has that value in {@code had} already (a write that changed nothing). */
    private static boolean owned(JsonNode written, JsonNode had) {
        if (had == null) {
            return false;
        }
        var fields = written.fields();
        while (fields.hasNext()) {
            var field = fields.next();
            if (!field.getValue().equals(had.get(field.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Nothing disturbed: no pod created untied, no webhook call failed, no PodGroup or HyperNode written with what it
     * had. A replica of a version that closed its webhook port at once when stopped (before the drain) breaks the
     * calls under way on the API server's kept-alive connections: then each failure must be one the API server let
     * through at that moment (audit log), and every pod it let in untied was deleted and made again in its gang.
     */
    private static void assertUndisturbed(Figures f) {
        assertThat(f.podsCreated())
                .as(f.name() + ": pods created during the rollout")
                .isGreaterThanOrEqualTo(4);
        assertThat(f.podGroupRewrites())
                .as(f.name() + ": PodGroup writes that changed nothing, or of the gang whose spec did not change")
                .isEmpty();
        assertThat(f.hyperNodeWrites()).as(f.name() + ": HyperNode writes").isZero();
        assertThat(f.probeTies()).as(f.name() + ": pod probes").isPositive();
        assertThat(f.probeRefusals()).as(f.name() + ": workload probes").isPositive();
        if (f.abruptStops().isEmpty()) {
            assertThat(f.untied()).as(f.name() + ": pods created untied").isEmpty();
            assertThat(f.probeFailures())
                    .as(f.name() + ": admission probes that failed")
                    .isEmpty();
            assertThat(f.failedOpen())
                    .as(f.name() + ": admissions the API server let through a failed webhook")
                    .isEmpty();
            return;
        }
        assertThat(f.untied().size() + f.probeFailures().size())
                .as(f.name() + ": untied pods " + f.untied() + " and failed probes " + f.probeFailures()
                        + ", each one the API server let through a failed webhook " + f.failedOpen())
                .isLessThanOrEqualTo(f.failedOpen().size());
        for (String failure : f.failedOpen()) {
            Instant at = Instant.parse(failure.substring(0, failure.indexOf(' ')));
            assertThat(f.abruptStops())
                    .as(f.name() + ": " + failure + " when a replica closed its port without draining")
                    .anyMatch(stop -> !at.isBefore(stop.minusSeconds(1)) && at.isBefore(stop.plusSeconds(5)));
        }
    }

    private static void print(Figures f, PreviousRelease previous) {
        System.out.printf(
                "HelmUpgrade %s (%s <-> this build): rollout of 2 replicas %.1f s; %d pods created, %d tied; PodGroup"
                        + " writes %s, %d that changed nothing; HyperNode writes %d; admission probes: %d pod ties, %d"
                        + " workload refusals, %d failed; failed-open admissions %d %s; replicas stopped without"
                        + " draining %d; bridge writes by resource %s%n",
                f.name(),
                previous.shortCommit(),
                f.rollout().toMillis() / 1000.0,
                f.podsCreated(),
                f.podsTied(),
                f.podGroupWrites(),
                f.podGroupRewrites().size(),
                f.hyperNodeWrites(),
                f.probeTies(),
                f.probeRefusals(),
                f.probeFailures().size(),
                f.failedOpen().size(),
                f.failedOpen(),
                f.abruptStops().size(),
                f.bridgeWrites());
    }

    // ---- the release: what helm applies ---------------------------------------------------------------------

    /** {@code helm install}: every rendered object but the webhook Service, which this machine's stand-in replaces. */
    private void install(Rendered chart) {
        String service = chart.controllerEnv().get("TOPOBRIDGE_ADMISSION_SERVICE_NAME");
        for (HasMetadata object : chart.resources(admin.getKubernetesSerialization())) {
            if (!(object.getKind().equals("Service")
                    && object.getMetadata().getName().equals(service))) {
                admin.resource(object).fieldManager("helm").forceConflicts().serverSideApply();
            }
        }
    }

    /** {@code helm upgrade} (and rollback): applies the new objects, deletes those no longer rendered. */
    private void helmUpgrade(Rendered from, Rendered to) {
        install(to);
        Set<String> kept = new TreeSet<>();
        to.resources(admin.getKubernetesSerialization()).forEach(o -> kept.add(key(o)));
        for (HasMetadata object : from.resources(admin.getKubernetesSerialization())) {
            if (!kept.contains(key(object))) {
                admin.resource(object).delete();
            }
        }
    }

    private static String key(HasMetadata object) {
        return object.getKind() + "/" + object.getMetadata().getNamespace() + "/"
                + object.getMetadata().getName();
    }

    /** The state a fresh install starts from: no webhook configurations, Lease or certificate of an earlier bridge. */
    private void forgetWhatTheBridgeMade(Rendered chart) {
        Map<String, String> env = chart.controllerEnv();
        String configurations = env.get("TOPOBRIDGE_ADMISSION_CONFIGURATION_NAME");
        var registration = admin.admissionRegistration().v1();
        registration.mutatingWebhookConfigurations().withName(configurations).delete();
        registration.validatingWebhookConfigurations().withName(configurations).delete();
        admin.leases()
                .inNamespace(NS)
                .withName(env.get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME"))
                .delete();
        String secret = env.get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME");
        admin.secrets().inNamespace(NS).withName(secret).delete();
        cluster.waitFor(
                "the old certificate Secret gone",
                TIMEOUT,
                () -> admin.secrets().inNamespace(NS).withName(secret).get() == null);
    }

    /** {@code helm uninstall} without its hook: the release's objects and what its controllers registered. */
    private void uninstall(Rendered chart) {
        for (HasMetadata object : chart.resources(admin.getKubernetesSerialization())) {
            admin.resource(object).delete();
        }
        forgetWhatTheBridgeMade(chart);
    }

    /** Waits until one running replica holds the Lease. */
    private void awaitLeader(Rendered chart, ChartReplicas replicas) {
        String lease = chart.controllerEnv().get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME");
        cluster.waitFor("a running replica leading", TIMEOUT, () -> {
            var held = admin.leases().inNamespace(NS).withName(lease).get();
            String holder = held == null ? null : held.getSpec().getHolderIdentity();
            return holder != null && replicas.running().stream().anyMatch(r -> holder.startsWith(r.name() + "-"));
        });
    }

    // ---- the gangs ------------------------------------------------------------------------------------------

    private void gang(String name, int replicas) {
        admin.apps()
                .deployments()
                .inNamespace(APPS)
                .resource(DeploymentWrapper.make(name, null)
                        .highestTier("leaf")
                        .replicas(replicas)
                        .cpu("100m")
                        // no scheduler named: only the pod webhook hands a pod to Volcano, with its tie
                        .schedulerName(null)
                        .obj())
                .create();
    }

    private void scale(String name, int replicas) {
        admin.apps().deployments().inNamespace(APPS).withName(name).scale(replicas);
    }

    /** The growing gang one pod larger (at each step of a rollout). */
    private void grow() {
        Deployment growing =
                admin.apps().deployments().inNamespace(APPS).withName(GROWING).get();
        scale(GROWING, growing.getSpec().getReplicas() + 1);
    }

    /**
     * Deletes the pods created untied once the gangs have all their pods, as the {@code UntiedPods} finding says to:
     * their ReplicaSets make them again, through the webhook.
     */
    private void repairUntied(PodRecorder created, Map<String, Integer> sizes) {
        cluster.waitFor(
                "the gangs' pods " + sizes,
                TIMEOUT,
                () -> sizes.entrySet().stream().allMatch(e -> pods(e.getKey()).size() == e.getValue()));
        for (String name : created.untiedNames()) {
            admin.pods().inNamespace(APPS).withName(name).withGracePeriod(0).delete();
        }
    }

    /** Waits until each gang has its pods, every one tied to the gang's PodGroup and bound by Volcano. */
    private void awaitGangs(Map<String, Integer> sizes) {
        sizes.forEach((name, size) -> cluster.waitFor(
                size + " pods of " + name + " tied and bound, and its PodGroup of " + size, TIMEOUT, () -> {
                    List<Pod> pods = pods(name);
                    var pg = PodGroups.get(admin, APPS, "tb-deploy-" + name);
                    return pg != null
                            && Integer.valueOf(size)
                                    .equals(((Map<?, ?>)
                                                    pg.getAdditionalProperties().get("spec"))
                                            .get("minMember"))
                            && pods.size() == size
                            && pods.stream()
                                    .allMatch(p -> ("tb-deploy-" + name).equals(tie(p))
                                            && p.getSpec().getNodeName() != null);
                }));
    }

    private List<Pod> pods(String app) {
        return admin.pods().inNamespace(APPS).withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    private static String tie(Pod pod) {
        var annotations = pod.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(AdmissionProbe.GROUP_NAME);
    }

    private Map<String, JsonNode> podGroupSpecs() {
        Map<String, JsonNode> out = new HashMap<>();
        for (var pg : PodGroups.ours(admin, APPS)) {
            out.put(
                    pg.getMetadata().getName(),
                    Examples.json(pg.getAdditionalProperties().get("spec")));
        }
        return out;
    }

    /** A probe with a pod of the steady gang as its ReplicaSet makes them, and a Deployment with an unknown tier. */
    private AdmissionProbe probe() {
        ReplicaSet rs = admin.apps()
                .replicaSets()
                .inNamespace(APPS)
                .withLabel("app", STEADY)
                .list()
                .getItems()
                .get(0);
        Pod pod = PodWrapper.make(STEADY + "-probe", APPS)
                .ownedBy(
                        "apps/v1",
                        "ReplicaSet",
                        rs.getMetadata().getName(),
                        rs.getMetadata().getUid())
                .label("app", STEADY)
                .label("pod-template-hash", rs.getMetadata().getLabels().get("pod-template-hash"))
                .cpu("100m")
                .schedulerName(null)
                .obj();
        Deployment refused = DeploymentWrapper.make("refused", null)
                .highestTier(BAD_TIER)
                .cpu("100m")
                .obj();
        refused.getMetadata().setNamespace(APPS);
        return new AdmissionProbe(admin, pod, "tb-deploy-" + STEADY, refused, BAD_TIER);
    }

    /** Every pod created in {@link #APPS} while it runs, with the tie it was created with. */
    private final class PodRecorder implements AutoCloseable {
        final Map<String, String> pods = new ConcurrentHashMap<>();
        private final Watch watch;

        PodRecorder() {
            String from = admin.pods().inNamespace(APPS).list().getMetadata().getResourceVersion();
            watch = admin.pods().inNamespace(APPS).withResourceVersion(from).watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod pod) {
                    if (action == Action.ADDED) {
                        String app = pod.getMetadata().getLabels().get("app");
                        String tie = tie(pod);
                        pods.put(
                                pod.getMetadata().getName(),
                                ("tb-deploy-" + app).equals(tie) ? "" : "untied (group-name " + tie + ")");
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                    // closed by the test, or the rollout's watch broke: the pod counts then fall short
                }
            });
        }

        List<String> untiedNames() {
            return pods.entrySet().stream()
                    .filter(e -> !e.getValue().isEmpty())
                    .map(Map.Entry::getKey)
                    .toList();
        }

        List<String> untied() {
            return pods.entrySet().stream()
                    .filter(e -> !e.getValue().isEmpty())
                    .map(e -> e.getKey() + " " + e.getValue())
                    .sorted()
                    .toList();
        }

        @Override
        public void close() {
            watch.close();
        }
    }

    /** Deletes the steady gang's oldest pod, once its ReplicaSet has made again the one deleted before. */
    private void churn() {
        List<Pod> pods = pods(STEADY);
        if (pods.size() == 2) {
            Pod oldest = pods.stream()
                    .min(java.util.Comparator.comparing(p -> p.getMetadata().getCreationTimestamp()))
                    .orElseThrow();
            admin.pods()
                    .inNamespace(APPS)
                    .withName(oldest.getMetadata().getName())
                    .withGracePeriod(0)
                    .delete();
        }
    }
}
