package io.topobridge.core.workload.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.resources.Quantities;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.changes.QueueStates;
import io.topobridge.core.workload.changes.Reservations;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.VolcanoObjects;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reconcile step over random namespaces of Deployments, LeaderWorkerSets and groups, with random ResourceQuotas,
 * priority classes, queues and limits, driven to its fixpoint the way the controller drives it (each pass's writes
 * carried out into a store of PodGroups, then the next pass over that store): it is deterministic, it settles (the
 * pass after the fixpoint writes and deletes nothing), and what it settles on keeps every bound — no namespace holds
 * more PodGroups than its limit, no namespace's PodGroups reserve more together than its quotas and share allow, no
 * PodGroup belongs to two scopes. Seeded, so a failure names its case.
 */
class ScopeReconcilerPropertyTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final int CASES = 120;
    private static final Amounts CLUSTER =
            new Amounts(Map.of("nvidia.com/gpu", BigDecimal.valueOf(64), "cpu", BigDecimal.valueOf(256)));

    static LongStream seeds() {
        return LongStream.range(0, CASES).map(i -> 7919L * i + 17);
    }

    /** One generated case: objects, and the limits the reconciler runs with. */
    private record Case(List<HasMetadata> objects, int maxPerNamespace, BigDecimal share, int maxGangs) {}

    private static Case generate(Random random) {
        StringBuilder yaml = new StringBuilder();
        List<String> namespaces = List.of("a", "b");
        for (String ns : namespaces) {
            yaml.append("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ")
                    .append(ns)
                    .append("\n  labels: {topobridge.io/enabled: \"")
                    .append(random.nextInt(6) == 0 ? "false" : "true")
                    .append("\"}\n---\n");
            if (random.nextBoolean()) {
                yaml.append("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: ")
                        .append(ns)
                        .append("}\nspec: {hard: {requests.nvidia.com/gpu: \"")
                        .append(random.nextInt(40))
                        .append("\", pods: \"")
                        .append(random.nextInt(30))
                        .append("\"}}\n---\n");
            }
            if (random.nextInt(3) == 0) {
                yaml.append("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: no-critical, namespace: ")
                        .append(ns)
                        .append("}\nspec:\n  hard: {pods: \"0\"}\n  scopeSelector:\n    matchExpressions:")
                        .append(" [{scopeName: PriorityClass, operator: In, values: [critical]}]\n---\n");
            }
            int workloads = random.nextInt(7);
            for (int i = 0; i < workloads; i++) {
                String name = "w" + i;
                String group = random.nextInt(4) == 0 ? "g" + random.nextInt(2) : null;
                String priority = random.nextInt(4) == 0 ? "critical" : random.nextBoolean() ? "standard" : null;
                String gpus = String.valueOf(random.nextInt(9));
                if (random.nextInt(3) == 0 && group == null) {
                    yaml.append(lws(ns, name, random.nextInt(6) == 0 ? 100_000 : random.nextInt(5), gpus, priority));
                } else {
                    yaml.append(deployment(ns, name, random.nextInt(6), gpus, priority, group));
                }
                yaml.append("---\n");
            }
        }
        return new Case(
                Fixtures.objects(yaml.toString()),
                1 + random.nextInt(5),
                random.nextBoolean() ? new BigDecimal("0.5") : BigDecimal.ONE,
                1 + random.nextInt(6));
    }

    private static String template(String gpus, String priority) {
        return "    spec:\n" + (priority == null ? "" : "      priorityClassName: " + priority + "\n")
                + "      containers: [{name: c, image: x, resources: {requests: {cpu: \"1\", nvidia.com/gpu: \""
                + gpus + "\"}}}]\n";
    }

    private static String deployment(String ns, String name, int replicas, String gpus, String priority, String group) {
        return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\n  namespace: " + ns
                + "\n  uid: uid-" + ns + "-" + name + "\n  annotations: {topobridge.io/highest-tier: rack"
                + (group == null ? "" : ", topobridge.io/group: " + group) + "}\nspec:\n  replicas: " + replicas
                + "\n  selector: {matchLabels: {app: " + name + "}}\n  template:\n    metadata: {labels: {app: "
                + name + "}}\n" + template(gpus, priority);
    }

    private static String lws(String ns, String name, int replicas, String gpus, String priority) {
        return "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: " + name
                + "\n  namespace: " + ns + "\n  uid: uid-" + ns + "-" + name
                + "\n  annotations: {topobridge.io/highest-tier: nvlink}\nspec:\n  replicas: " + replicas
                + "\n  leaderWorkerTemplate:\n    size: 2\n    workerTemplate:\n"
                + template(gpus, priority).indent(4);
    }

    private static ScopeReconciler reconciler(Case c) {
        var settings = Fixtures.settings()
                .maxPodGroupsPerNamespace(c.maxPerNamespace())
                .maxGangsPerWorkload(c.maxGangs())
                .build();
        return new ScopeReconciler(
                new WorkloadTranslator(settings, Kinds.adapters(), Clock.fixed(NOW, ZoneOffset.UTC)),
                TestSettings.defaults(),
                new Reservations.Settings(c.share(), Map.of()));
    }

    /** One pass over every scope of the objects and the PodGroups in the store. */
    private static List<Outcome> pass(ScopeReconciler r, Case c, Map<String, PodGroup> store) {
        List<HasMetadata> all = new ArrayList<>(c.objects());
        all.addAll(store.values());
        var lookup = new InMemoryLookup(all);
        List<HasMetadata> workloads = c.objects().stream()
                .filter(o -> WorkloadKind.of(o.getApiVersion(), o.getKind()).isPresent())
                .toList();
        var facts = new PassFacts(Fixtures.TIERS, Fixtures.TIERS, CLUSTER, QueueStates.UNKNOWN, NOW, ClusterFacts.NONE);
        return r.reconcile(r.scopesOf(workloads, lookup.allPodGroups(), lookup), lookup, facts);
    }

    /** Carries a pass's writes out into the store, as the one writer would. */
    private static int carryOut(List<Outcome> outcomes, Map<String, PodGroup> store) {
        int changes = 0;
        for (Outcome outcome : outcomes) {
            for (PodGroupChanges.Step step : outcome.steps()) {
                if (step instanceof PodGroupChanges.Apply apply) {
                    DesiredPodGroup desired = apply.podGroup();
                    PodGroup written = VolcanoObjects.podGroup(desired);
                    written.getMetadata().setResourceVersion("1");
                    PodGroup before = store.put(key(desired.namespace(), desired.name()), written);
                    if (before == null || !same(before, written)) {
                        changes++;
                    }
                } else if (step instanceof PodGroupChanges.Delete delete) {
                    store.remove(key(delete.namespace(), delete.name()));
                    changes++;
                }
            }
        }
        return changes;
    }

    private static boolean same(PodGroup a, PodGroup b) {
        return a.getSpec().equals(b.getSpec())
                && java.util.Objects.equals(
                        a.getMetadata().getAnnotations(), b.getMetadata().getAnnotations())
                && java.util.Objects.equals(
                        a.getMetadata().getLabels(), b.getMetadata().getLabels());
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void itIsDeterministicSettlesAndKeepsEveryBound(long seed) {
        Case c = generate(new Random(seed));
        ScopeReconciler r = reconciler(c);
        Map<String, PodGroup> store = new LinkedHashMap<>();

        assertThat(pass(r, c, store)).as("seed %d: deterministic", seed).isEqualTo(pass(r, c, store));

        int passes = 0;
        int changes;
        do {
            changes = carryOut(pass(r, c, store), store);
            passes++;
        } while (changes > 0 && passes < 6);
        assertThat(changes).as("seed %d: settled after %d passes", seed, passes).isZero();

        // the pass after the fixpoint deletes nothing and writes only what the store holds already
        List<Outcome> last = pass(r, c, store);
        assertThat(last.stream().flatMap(o -> o.steps().stream()))
                .as("seed %d: no delete after the fixpoint", seed)
                .noneMatch(PodGroupChanges.Delete.class::isInstance);
        assertThat(carryOut(last, new LinkedHashMap<>(store)))
                .as("seed %d: nothing changes after the fixpoint", seed)
                .isZero();

        Map<String, Integer> perNamespace = new HashMap<>();
        Map<String, BigDecimal> gpus = new HashMap<>();
        Map<String, String> owner = new HashMap<>();
        for (PodGroup pg : store.values()) {
            String ns = pg.getMetadata().getNamespace();
            perNamespace.merge(ns, 1, Integer::sum);
            var minResources = pg.getSpec().getMinResources();
            if (minResources != null && minResources.containsKey("nvidia.com/gpu")) {
                gpus.merge(ns, Quantities.amount(minResources.get("nvidia.com/gpu")), BigDecimal::add);
            }
            String gang = pg.getMetadata().getAnnotations().get("topobridge.io/gang");
            assertThat(owner.put(key(ns, pg.getMetadata().getName()), gang))
                    .as("seed %d: one owner per PodGroup", seed)
                    .isNull();
            assertThat(GangScope.parse(ns, gang))
                    .as("seed %d: %s names its scope", seed, gang)
                    .isPresent();
        }
        BigDecimal share = CLUSTER.get("nvidia.com/gpu").multiply(c.share());
        perNamespace.forEach((ns, count) ->
                assertThat(count).as("seed %d: PodGroups in %s", seed, ns).isLessThanOrEqualTo(c.maxPerNamespace()));
        gpus.forEach((ns, sum) -> {
            assertThat(sum).as("seed %d: GPUs reserved in %s", seed, ns).isLessThanOrEqualTo(share);
            quota(c, ns)
                    .ifPresent(limit -> assertThat(sum)
                            .as("seed %d: GPUs reserved in %s within its quota", seed, ns)
                            .isLessThanOrEqualTo(limit));
        });
    }

    /** The GPUs the case's unscoped quota of a namespace allows, if it has one. */
    private static java.util.Optional<BigDecimal> quota(Case c, String namespace) {
        return c.objects().stream()
                .filter(o -> o instanceof io.fabric8.kubernetes.api.model.ResourceQuota q
                        && namespace.equals(q.getMetadata().getNamespace())
                        && q.getSpec().getScopeSelector() == null)
                .map(o -> ((io.fabric8.kubernetes.api.model.ResourceQuota) o)
                        .getSpec()
                        .getHard()
                        .get("requests.nvidia.com/gpu"))
                .filter(java.util.Objects::nonNull)
                .map(Quantities::amount)
                .findFirst();
    }
}
