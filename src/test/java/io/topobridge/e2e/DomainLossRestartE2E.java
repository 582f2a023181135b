package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.TwoPartitionPool.Failure;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import io.topobridge.testing.wrappers.LeaderWorkerSetWrapper;
import io.topobridge.testing.wrappers.StatefulSetWrapper;
import io.topobridge.testing.wrappers.StormServiceWrapper;
import io.topobridge.testing.wrappers.WorkloadWrapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code topobridge.io/on-domain-loss} on the real cluster, per workload kind: a gang of four 4-GPU pods, {@code
 * highest-tier: nvlink} (a Deployment of 4, a StatefulSet of 4, a LeaderWorkerSet group of size 4 with LWS's default
 * restart policy and with {@code restartPolicy: None}, an AIBrix StormService with one role of 4 pods), fills one NVLink
 * partition of a pool of its own (two partitions of four 4-GPU nodes, {@link TwoPartitionPool}); the other sits empty
 * beside it. One of its pods (the last by name) is killed, or its node goes NotReady (the pod evicted, left
 * Terminating), is drained, or is deleted. With {@code restart} and a short grace ({@link #GRACE}) the bridge restarts
 * the gang through its own controller once the domain has been lost for the grace, and the gang runs whole again in the
 * other partition, where its controller can make its pods again ({@link #expected} says which case comes to what, and
 * {@link #why} why a gang stays short); with {@code wait} it deletes nothing (what Volcano and the kind's controller do
 * alone). Per run it prints one {@code DOMAINLOSS} line: the time from the failure to the restart and to the whole
 * gang running again, where, whether the tier was kept, the bridge's writes and who created the pods (audit log).
 *
 * <p>By default it runs the restart after a node NotReady for each kind and the restart through a LeaderWorkerSet
 * group's leader after a drain. {@code -Dtopobridge.e2e.domainloss.matrix=full} runs every kind × failure × policy;
 * {@code -Dtopobridge.e2e.domainloss.runs=N} repeats each case (medians printed).
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DomainLossRestartE2E {

    static final String NS = "domainloss-e2e";
    static final String POOL = "domainloss";
    /**
     * The workloads' {@code domain-loss-grace}: 5 s in the suite, where a restarted gang runs whole again within a
     * second; the figures of docs/reliability.md were taken with a 10 s one ({@code
     * -Dtopobridge.e2e.domainloss.grace=10}). The windows that prove nothing happens are counted in graces, so they keep
     * their meaning with it.
     */
    static final Duration GRACE = Duration.ofSeconds(Long.getLong("topobridge.e2e.domainloss.grace", 5));
    /** How long the gang may take to run again in the other partition, from the failure. */
    static final Duration WINDOW = Duration.ofSeconds(Long.getLong("topobridge.e2e.domainloss.window", 90));
    /** How many times each case runs (medians are printed). */
    static final int RUNS = Integer.getInteger("topobridge.e2e.domainloss.runs", 1);
    /** {@code full}: every kind × failure × policy; otherwise the default cases (see the class comment). */
    static final boolean FULL = "full".equals(System.getProperty("topobridge.e2e.domainloss.matrix", "default"));

    private static final Duration PLACED = TwoPartitionPool.PLACED;
    private static final String CLIQUE = "4c2d9b7e-1a3f-4e5d-9c8b-domainloss01";
    private static final String RESTART = "restart";
    private static final String WAIT = "wait";

    /** The workload kinds, each a gang of four 4-GPU pods labelled {@code app: <name>}. */
    enum Kind {
        DEPLOYMENT("Deployment", "Deployment", "dep"),
        STATEFUL_SET("StatefulSet", "StatefulSet", "sts"),
        /** LWS's default {@code restartPolicy: RecreateGroupOnPodRestart}: LWS recreates a group that lost a pod. */
        LEADER_WORKER_SET("LeaderWorkerSet", "LeaderWorkerSet", "lws"),
        /** {@code restartPolicy: None}: LWS makes only the lost pod again; the bridge restarts through the leader. */
        LEADER_WORKER_SET_NONE("LeaderWorkerSet", "LeaderWorkerSet(restartPolicy=None)", "lwsn"),
        STORM_SERVICE("StormService", "StormService", "ss");

        final String kind;
        final String label;
        final String tag;

        Kind(String kind, String label, String tag) {
            this.kind = kind;
            this.label = label;
            this.tag = tag;
        }

        boolean lws() {
            return this == LEADER_WORKER_SET || this == LEADER_WORKER_SET_NONE;
        }
    }

    /** What a case comes to, as measured (see docs/reliability.md, "Restarting a gang whose domain is lost"). */
    enum Outcome {
        /** The bridge restarts the gang through its controller; it runs whole again in the other partition. */
        MOVED,
        /** Nothing of the bridge's: the gang runs whole again by itself (the pod made again, or the group). */
        ALONE,
        /** The gang stays short: its domain lost (said: {@code DomainLost}), or its pod blocked (see {@link #why}). */
        STUCK
    }

    /** One case: a kind, a failure, a policy. */
    record Case(Kind kind, Failure failure, String policy) {
        String label() {
            return policy + " " + kind.label + " " + failure;
        }
    }

    /** What one run measured. */
    record Figures(
            Case c,
            int run,
            Duration toRestart,
            Duration toRunning,
            Duration toDidNotHelp,
            Boolean tierKept,
            String domainBefore,
            String domainAfter,
            Map<String, Integer> bridgeWrites,
            List<String> bridgePodDeletes,
            Map<String, Integer> podCreatesBy,
            List<String> terminating,
            String achievedTier,
            Duration window) {

        String line() {
            return "DOMAINLOSS kind=" + c.kind().label + " policy=" + c.policy() + " failure=" + c.failure() + " run="
                    + run + " restarted=" + (toRestart == null ? "no" : toRestart.toMillis() + " ms")
                    + " running-again="
                    + (toRunning == null ? "no (stuck > " + window.toSeconds() + " s)" : toRunning.toMillis() + " ms")
                    + (toDidNotHelp == null ? "" : " restart-did-not-help=" + toDidNotHelp.toMillis() + " ms")
                    + " tier-kept=" + (tierKept == null ? "-" : tierKept ? "yes" : "no") + " domain=" + domainBefore
                    + "->" + domainAfter + " achieved-tier=" + achievedTier + " bridge-writes=" + bridgeWrites
                    + " bridge-pod-deletes=" + bridgePodDeletes + " pod-creates-by=" + podCreatesBy
                    + " terminating=" + terminating;
        }
    }

    private final RealCluster cluster;
    private final TwoPartitionPool pool;
    private KubernetesClient client;
    private GangPods gang;
    private final List<String> lines = new ArrayList<>();
    private final Map<String, List<Figures>> measured = new TreeMap<>();

    DomainLossRestartE2E(RealCluster cluster) {
        this.cluster = cluster;
        this.pool = new TwoPartitionPool(cluster, NS, "dl", POOL, CLIQUE);
    }

    @BeforeAll
    void pool() {
        client = cluster.client();
        gang = new GangPods(client, NS);
        pool.setUp();
    }

    @AfterAll
    void cleanUp() {
        lines.forEach(System.out::println);
        measured.forEach((label, runs) -> {
            List<Long> running = runs.stream()
                    .filter(f -> f.toRunning() != null)
                    .map(f -> f.toRunning().toMillis())
                    .sorted()
                    .toList();
            List<Long> restart = runs.stream()
                    .filter(f -> f.toRestart() != null)
                    .map(f -> f.toRestart().toMillis())
                    .sorted()
                    .toList();
            System.out.println("DOMAINLOSS median " + label + " runs=" + runs.size() + " restarted=" + median(restart)
                    + " ms (all: " + restart + ") running-again=" + median(running) + " ms (all: " + running
                    + ", stuck: " + (runs.size() - running.size()) + ")");
        });
        pool.tearDown();
    }

    private static Object median(List<Long> sorted) {
        return sorted.isEmpty() ? "-" : sorted.get(sorted.size() / 2);
    }

    // ---------------------------------------------------------------- the workloads

    private static String name(Case c, int run) {
        String failure = switch (c.failure()) {
            case POD_KILLED -> "kill";
            case NODE_NOT_READY -> "nr";
            case NODE_CORDONED -> "drain";
            case NODE_DELETED -> "del";
        };
        return "dl-" + c.kind().tag + "-" + c.policy().charAt(0) + "-" + failure + "-" + run;
    }

    /** The workload: four 4-GPU pods labelled {@code app: <name>} on the pool, one gang within NVLink. */
    private static HasMetadata object(Kind kind, String name, String policy) {
        WorkloadWrapper<?, ?> w = switch (kind) {
            case DEPLOYMENT -> DeploymentWrapper.make(name, NS).replicas(4);
            case STATEFUL_SET -> StatefulSetWrapper.make(name, NS).replicas(4);
            case LEADER_WORKER_SET ->
                LeaderWorkerSetWrapper.make(name, NS).replicas(1).size(4).podLabel("app", name);
            case LEADER_WORKER_SET_NONE ->
                LeaderWorkerSetWrapper.make(name, NS)
                        .replicas(1)
                        .size(4)
                        .restartPolicy("None")
                        .podLabel("app", name);
            case STORM_SERVICE ->
                StormServiceWrapper.make(name, NS).replicas(1).role("engine", 4).podLabel("app", name);
        };
        w.highestTier("nvlink");
        w.annotation("topobridge.io/on-domain-loss", policy);
        w.annotation("topobridge.io/domain-loss-grace", GRACE.toSeconds() + "s");
        w.gpus(4);
        w.cpu("1");
        w.nodeSelector(TwoPartitionPool.POOL_LABEL, POOL);
        return w.obj();
    }

    /**
     * AIBrix's StormService controller can end a reconcile without acting (as {@code AdoptionE2E} saw): when no RoleSet
     * of the StormService appears within 30 s it is touched once, which calls its reconcile again.
     */
    private void nudgeIfIgnored(String name) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (!client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", "RoleSet")
                    .inNamespace(NS)
                    .withLabel("app", name)
                    .list()
                    .getItems()
                    .isEmpty()) {
                return;
            }
            RealCluster.sleep(Duration.ofMillis(500));
        }
        System.out.printf("AIBrix made no RoleSet for %s/%s in 30 s; touching the StormService once%n", NS, name);
        client.genericKubernetesResources(StormServiceWrapper.API_VERSION, "StormService")
                .inNamespace(NS)
                .withName(name)
                .edit(o -> {
                    o.getMetadata().getAnnotations().put("e2e.example.com/touched", "1");
                    return o;
                });
    }

    // ---------------------------------------------------------------- what each kind's restart does

    /** What the case comes to (as measured on the real cluster; the reasons are in docs/reliability.md). */
    static Outcome expected(Case c) {
        if (c.failure() == Failure.POD_KILLED) {
            // the domain takes the pod back (LWS by default makes the whole group again, placed whole by Volcano)
            return Outcome.ALONE;
        }
        if (c.failure() == Failure.NODE_NOT_READY && c.kind() != Kind.DEPLOYMENT) {
            return Outcome.STUCK;
        }
        if (c.kind() == Kind.LEADER_WORKER_SET) {
            // LWS recreates the group that lost a pod; Volcano places the new group whole in the partition with room
            return Outcome.ALONE;
        }
        return RESTART.equals(c.policy()) ? Outcome.MOVED : Outcome.STUCK;
    }

    /**
     * Why a gang stays short after its node went NotReady though its controller would make its pods again: the evicted
     * pod stays Terminating until the node answers again or is removed, and a controller that names its pods makes no
     * pod of that name until it is gone (null: the gang is short for its lost domain alone).
     */
    static String why(Case c) {
        if (c.failure() != Failure.NODE_NOT_READY) {
            return null;
        }
        return switch (c.kind()) {
            case DEPLOYMENT -> null;
            case STATEFUL_SET -> "the StatefulSet makes no pod of the ordinal still Terminating on the down node";
            case LEADER_WORKER_SET ->
                "LWS recreated the group, but its old worker StatefulSet waits for the pod still Terminating on the"
                        + " down node";
            case LEADER_WORKER_SET_NONE ->
                "the group's worker StatefulSet makes no pod of the name still Terminating on the down node";
            case STORM_SERVICE -> "the RoleSet makes no pod of the name still Terminating on the down node";
        };
    }

    // ---------------------------------------------------------------- one run

    /** Runs one case; returns what it measured. */
    private Figures scenario(Case c, int run) {
        String name = name(c, run);
        Outcome expected = expected(c);
        boolean moved = expected == Outcome.MOVED;
        HasMetadata object = object(c.kind(), name, c.policy());
        pool.restoreNodes();
        client.resource(object).create();
        try {
            if (c.kind() == Kind.STORM_SERVICE) {
                nudgeIfIgnored(name);
            }
            cluster.waitFor(name + " running", PLACED, () -> gang.running(name, Set.of()));
            String before = gang.domain(name).map(Placement.Domain::name).orElse("none");
            List<Pod> pods = new ArrayList<>(gang.live(name));
            pods.sort(Comparator.comparing(p -> p.getMetadata().getName()));
            String podGroup = pods.get(0).getMetadata().getAnnotations().get("scheduling.k8s.io/group-name");
            Set<String> original = new HashSet<>();
            pods.forEach(p -> original.add(p.getMetadata().getUid()));
            Pod victim = pods.get(pods.size() - 1);
            // the partition the gang does not run in: where a restart must take it
            String other = Placement.of(client)
                    .lowestCommon(pool.otherPartition(victim.getSpec().getNodeName()))
                    .map(Placement.Domain::name)
                    .orElseThrow();
            cluster.waitFor("the achieved tier of " + podGroup, PLACED, () -> "1".equals(pool.achievedTier(podGroup)));
            long mark = cluster.audit().mark();
            long started = System.nanoTime();
            Set<String> gone = pool.fail(c.failure(), victim);
            Duration toRestart = null;
            Duration toRunning = null;
            Duration toDidNotHelp = null;
            // stuck: three graces, well past the grace and the restart it would bring
            Duration window = expected == Outcome.STUCK ? GRACE.multipliedBy(3) : WINDOW;
            long deadline = started + window.toNanos();
            while (System.nanoTime() < deadline) {
                if (toRestart == null
                        && !pool.events("GangRestarted", c.kind().kind, name).isEmpty()) {
                    toRestart = Duration.ofNanos(System.nanoTime() - started);
                }
                if (toDidNotHelp == null
                        && !pool.events("RestartDidNotHelp", "PodGroup", podGroup)
                                .isEmpty()) {
                    toDidNotHelp = Duration.ofNanos(System.nanoTime() - started);
                }
                // restarted: whole again, none of the pods that ran before the failure; else whole again
                if (gang.running(name, moved && toRestart != null ? original : gone)) {
                    toRunning = Duration.ofNanos(System.nanoTime() - started);
                    break;
                }
                if (toDidNotHelp != null) {
                    // the bridge says the restart did not help: the gang stays short until the blocker goes
                    break;
                }
                RealCluster.sleep(Duration.ofMillis(200));
            }
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(60));
            Optional<Placement.Domain> after = toRunning == null ? Optional.empty() : gang.domain(name);
            List<AuditLog.Write> bridgeWrites = pool.ownWrites(mark);
            Map<String, Integer> writes = new TreeMap<>();
            for (AuditLog.Write w : bridgeWrites) {
                writes.merge(
                        w.verb() + " " + w.resource() + (w.subresource().isEmpty() ? "" : "/" + w.subresource()),
                        1,
                        Integer::sum);
            }
            List<AuditLog.Write> podDeletes = bridgeWrites.stream()
                    .filter(w -> "delete".equals(w.verb()) && "pods".equals(w.resource()))
                    .toList();
            // who made the gang's pods again: the kind's controller, never the bridge
            Map<String, Integer> podCreatesBy = new TreeMap<>();
            cluster.audit()
                    .writesSince(
                            mark,
                            w -> NS.equals(w.namespace()) && "create".equals(w.verb()) && "pods".equals(w.resource()))
                    .forEach(w -> podCreatesBy.merge(
                            w.user().replace("system:serviceaccount:", "")
                                    + (w.subresource().isEmpty() ? "" : "/" + w.subresource()),
                            1,
                            Integer::sum));
            Figures f = new Figures(
                    c,
                    run,
                    toRestart,
                    toRunning,
                    toDidNotHelp,
                    toRunning == null ? null : after.map(d -> d.tier() <= 1).orElse(false),
                    before,
                    after.map(Placement.Domain::name).orElse("-"),
                    writes,
                    podDeletes.stream().map(AuditLog.Write::name).toList(),
                    podCreatesBy,
                    gang.terminating(name),
                    pool.achievedTier(podGroup),
                    window);
            System.out.println(f.line());
            lines.add(f.line());
            // always: the bridge makes and binds no pod, and rewrites the PodGroup at most once
            assertThat(bridgeWrites)
                    .as("the bridge creates no pod and binds none; " + f.line())
                    .noneMatch(w -> "pods".equals(w.resource()) && "create".equals(w.verb()));
            assertThat(bridgeWrites.stream()
                            .filter(w -> "podgroups".equals(w.resource()))
                            .count())
                    .as("PodGroup writes; " + f.line())
                    .isLessThanOrEqualTo(1);
            if (expected != Outcome.MOVED) {
                assertThat(podDeletes)
                        .as("the bridge deletes nothing; " + f.line())
                        .isEmpty();
                assertThat(pool.events("GangRestarted", c.kind().kind, name))
                        .as(f.line())
                        .isEmpty();
                if (expected == Outcome.ALONE) {
                    assertThat(f.toRunning()).as("running again; " + f.line()).isNotNull();
                    assertThat(f.tierKept()).as(f.line()).isTrue();
                    assertThat(pool.achievedTier(podGroup)).isEqualTo("1");
                    return f;
                }
                assertThat(f.toRunning()).as("stuck; " + f.line()).isNull();
                String why = why(c);
                if (why == null) {
                    assertThat(pool.events("DomainLost", c.kind().kind, name))
                            .as("DomainLost on the " + c.kind().kind + "; " + f.line())
                            .isNotEmpty();
                } else {
                    assertThat(f.terminating())
                            .as(why + "; " + f.line())
                            .contains(victim.getMetadata().getName() + "@"
                                    + victim.getSpec().getNodeName());
                    List<io.fabric8.kubernetes.api.model.Event> blocked =
                            pool.events("ReplacementBlocked", c.kind().kind, name);
                    System.out.println("DOMAINLOSS " + c.label() + " ReplacementBlocked: "
                            + blocked.stream().map(e -> e.getMessage()).toList());
                    if (c.kind() != Kind.LEADER_WORKER_SET) {
                        // the bridge says why the gang runs short, naming the pod that blocks its replacement
                        assertThat(blocked)
                                .as("ReplacementBlocked on the " + c.kind().kind + "; " + f.line())
                                .anySatisfy(e -> assertThat(e.getMessage())
                                        .contains(victim.getMetadata().getName() + " Terminating on "
                                                + victim.getSpec().getNodeName()));
                    }
                }
                return f;
            }
            assertThat(toRestart)
                    .as("a GangRestarted Event within " + window + "; " + f.line())
                    .isNotNull();
            assertThat(toRestart).as(f.line()).isGreaterThanOrEqualTo(GRACE);
            String message =
                    pool.events("GangRestarted", c.kind().kind, name).get(0).getMessage();
            assertThat(message)
                    .contains("gang " + podGroup)
                    .contains(before)
                    .contains("places the whole gang in a domain with room (");
            // the domains with room come last: a long message is cut (Events are bounded) before it names them all
            assertThat(message.contains(other) || message.endsWith("…"))
                    .as("names " + other + " or is cut: " + message)
                    .isTrue();
            assertThat(pool.events("GangRestarted", "PodGroup", podGroup)).isNotEmpty();
            assertThat(podDeletes)
                    .as("pod deletes of the bridge; " + f.line())
                    .allSatisfy(w -> assertThat(w.succeeded()).isTrue());
            assertThat(podDeletes.stream().map(AuditLog.Write::name).distinct()).hasSameSizeAs(podDeletes);
            if (c.kind().lws()) {
                // the group's leader alone: LeaderWorkerSet makes the whole group again
                assertThat(message).contains("deleted its group's leader pod " + name + "-0 ");
                assertThat(f.bridgePodDeletes()).as(f.line()).containsExactly(name + "-0");
            } else {
                // the gang's live pods of the moment (those running, the pending replacement), each once
                assertThat(message).contains("deleted its pods");
                assertThat(podDeletes).as(f.line()).hasSizeBetween(3, 4);
                assertThat(podDeletes).allSatisfy(w -> assertThat(w.name()).startsWith(name + "-"));
            }
            assertThat(f.toRunning())
                    .as("the whole gang running again within " + window + "; " + f.line())
                    .isNotNull();
            assertThat(f.domainAfter()).as(f.line()).isEqualTo(other);
            assertThat(f.tierKept()).as(f.line()).isTrue();
            // the gang runs at the tier it asked for, in its new partition: no PodGroup rewrite is needed
            assertThat(pool.achievedTier(podGroup)).isEqualTo("1");
            // no second restart: a grace later, still no more deletes than the first
            RealCluster.sleep(GRACE.plusSeconds(2));
            assertThat(cluster.audit().writesSince(mark, RealCluster.BRIDGE).stream()
                            .filter(w -> NS.equals(w.namespace()))
                            .filter(w -> "delete".equals(w.verb()) && "pods".equals(w.resource()))
                            .count())
                    .as("pod deletes a grace later")
                    .isEqualTo(podDeletes.size());
            assertThat(gang.running(name, original)).as("still running whole").isTrue();
            return f;
        } finally {
            client.resource(object).delete();
            pool.forceDeleteTerminating();
            cluster.waitFor(
                    name + "'s pods gone",
                    Duration.ofSeconds(120),
                    () -> client.pods()
                            .inNamespace(NS)
                            .withLabel("app", name)
                            .list()
                            .getItems()
                            .isEmpty());
            if (c.kind() == Kind.STORM_SERVICE) {
                cluster.waitFor(
                        name + "'s RoleSets gone",
                        Duration.ofSeconds(120),
                        () -> client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", "RoleSet")
                                .inNamespace(NS)
                                .withLabel("app", name)
                                .list()
                                .getItems()
                                .isEmpty());
            }
        }
    }

    /**
     * The cases run: by default the restart after a node NotReady per kind and the restart through a LeaderWorkerSet
     * group's leader (after a drain); with {@code matrix=full} every kind × failure × policy.
     */
    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        if (FULL) {
            for (Kind kind : Kind.values()) {
                for (Failure failure : Failure.values()) {
                    out.add(new Case(kind, failure, RESTART));
                    out.add(new Case(kind, failure, WAIT));
                }
            }
            return out;
        }
        for (Kind kind : List.of(Kind.DEPLOYMENT, Kind.STATEFUL_SET, Kind.LEADER_WORKER_SET, Kind.STORM_SERVICE)) {
            out.add(new Case(kind, Failure.NODE_NOT_READY, RESTART));
        }
        // the restart through a LeaderWorkerSet group's leader
        out.add(new Case(Kind.LEADER_WORKER_SET_NONE, Failure.NODE_CORDONED, RESTART));
        return out;
    }

    @TestFactory
    Stream<DynamicTest> restartsPerKind() {
        return cases().stream()
                .flatMap(c -> java.util.stream.IntStream.rangeClosed(1, RUNS)
                        .mapToObj(run -> DynamicTest.dynamicTest(
                                c.label() + " #" + run,
                                () -> measured.computeIfAbsent(c.label(), l -> new ArrayList<>())
                                        .add(scenario(c, run)))));
    }

    /**
     * The one writer's pod delete names the uid it was decided on: a pod made since under the same name (a StatefulSet's
     * pod, say) is left alone, on the real API server.
     */
    @Test
    void deletesOnlyThePodItDecidedOn() {
        var applier = new io.topobridge.apply.Applier(
                client,
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(),
                new io.topobridge.apply.RecentObjects());
        Pod pod = client.pods()
                .inNamespace(NS)
                .resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                        .withNewMetadata()
                        .withName("same-name")
                        .withNamespace(NS)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeSelector(Map.of(TwoPartitionPool.POOL_LABEL, "nowhere"))
                        .addNewContainer()
                        .withName("c")
                        .withImage("registry.k8s.io/pause:3.10")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        try {
            assertThat(applier.deletePod(NS, "same-name", "00000000-0000-0000-0000-000000000000"))
                    .as("another uid: refused by the API server, nothing deleted")
                    .isFalse();
            Pod still = client.pods().inNamespace(NS).withName("same-name").get();
            assertThat(still).isNotNull();
            assertThat(still.getMetadata().getDeletionTimestamp()).isNull();
            assertThat(applier.deletePod(NS, "same-name", pod.getMetadata().getUid()))
                    .isTrue();
            cluster.waitFor("pod same-name deleted", Duration.ofSeconds(30), () -> {
                Pod now = client.pods().inNamespace(NS).withName("same-name").get();
                return now == null || now.getMetadata().getDeletionTimestamp() != null;
            });
            assertThat(applier.deletePod(NS, "gone-already", pod.getMetadata().getUid()))
                    .as("a pod that is not there")
                    .isFalse();
        } finally {
            client.pods()
                    .inNamespace(NS)
                    .withName("same-name")
                    .withGracePeriod(0)
                    .delete();
        }
    }
}
