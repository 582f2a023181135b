package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For random shapes of every kind, the pods that kind's own controller would create ({@link ControllersSimulation})
 * are each tied to exactly one PodGroup of their workload, the one whose plan counts them: per PodGroup the pods
 * tied to it are the pods it counts ({@code minResources} is one CPU per pod here) and {@code minMember} is that
 * count unless the workload overrides it; a pod of a refused or unmanaged workload is tied to nothing; and the
 * validating webhook denies exactly the workloads the reconciler refuses. Seeded, so a failure names its case.
 */
class GangPropertyTest {

    private static final int CASES_PER_KIND = 150;
    private static final String NS = "ns";
    private static final List<String> TIERS = List.of("1", "2", "3", "nvlink", "rack", "spine", "7", "leaf", " 2 ");
    private static final AtomicInteger CASES = new AtomicInteger();
    private static final AtomicInteger PODS = new AtomicInteger();

    private final WorkloadTranslator translator = Fixtures.translator();
    private final PodAdmission admission = new PodAdmission(new AdmissionSettings("volcano"), translator::tie);

    static Stream<String> kinds() {
        return Stream.of(
                "Deployment",
                "StatefulSet",
                "LeaderWorkerSet",
                "DisaggregatedSet",
                "StormService",
                "RoleSet",
                "PodSet",
                "Group");
    }

    @AfterAll
    static void report() {
        System.out.printf("GangPropertyTest: %d generated cases, %d pods admitted%n", CASES.get(), PODS.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyPodJoinsThePodGroupThatCountsIt(String kind) {
        for (int i = 0; i < CASES_PER_KIND; i++) {
            long seed = kind.hashCode() * 1_000_003L + i;
            List<HasMetadata> workloads = generate(kind, new Random(seed));
            check(kind + " case " + i + " (seed " + seed + ")", workloads);
            CASES.incrementAndGet();
        }
    }

    private void check(String name, List<HasMetadata> workloads) {
        ControllersSimulation.Made made = ControllersSimulation.all(workloads);
        List<HasMetadata> objects = new ArrayList<>(workloads);
        objects.addAll(made.objects());
        WorkloadLookup lookup = Fixtures.lookup(objects);
        TranslationResult translation = TranslationResult.of(translator, objects, Fixtures.TIERS, lookup);
        Set<String> refused = translation.findings().stream()
                .filter(Finding::isRejection)
                .map(f -> f.object().toString())
                .collect(Collectors.toSet());
        Map<String, DesiredPodGroup> podGroups = new HashMap<>();
        translation.podGroups().forEach(p -> podGroups.put(p.name(), p));
        String context = name + "\nworkloads: "
                + workloads.stream().map(Fixtures.SERIALIZATION::asYaml).toList() + "\nfindings: "
                + translation.findings().stream().map(Finding::line).toList();

        Map<String, Integer> tied = new HashMap<>();
        Map<String, Integer> atStart = new HashMap<>();
        Map<String, Integer> stamped = new HashMap<>();
        for (Pod pod : made.pods()) {
            PODS.incrementAndGet();
            String top = pod.getMetadata().getLabels().get(TOP);
            boolean expectTied = managed(top, workloads) && !refused.contains(top);
            PodAdmission.Result result = admission.admit(pod, Fixtures.TIERS, lookup);
            String stamp = pod.getMetadata().getAnnotations() == null
                    ? null
                    : pod.getMetadata().getAnnotations().get(VolcanoApi.GROUP_NAME_ANNOTATION);
            if (stamp != null) {
                stamped.merge(stamp, 1, Integer::sum);
            }
            boolean isTied = result.outcome() == PodAdmission.Outcome.ASSIGNED
                    || result.outcome() == PodAdmission.Outcome.ADOPTED;
            if (!expectTied && stamp != null && result.outcome() == PodAdmission.Outcome.ADOPTED) {
                // AIBrix or LWS tied it to their own PodGroup, which exists whatever the bridge thinks of the gang
                assertThat(result.podGroup()).as(context).isEqualTo(stamp);
                continue;
            }
            assertThat(isTied)
                    .as(context + "\npod " + pod.getMetadata().getName() + " of " + top + ": " + result.outcome())
                    .isEqualTo(expectTied);
            if (isTied) {
                assertThat(podGroups)
                        .as(context + "\npod " + pod.getMetadata().getName() + " is tied to a PodGroup that is made")
                        .containsKey(result.podGroup());
                tied.merge(result.podGroup(), 1, Integer::sum);
                if (existsAtStart(pod, workloads)) {
                    atStart.merge(result.podGroup(), 1, Integer::sum);
                }
            }
        }
        for (DesiredPodGroup pg : translation.podGroups()) {
            int count = tied.getOrDefault(pg.name(), 0);
            if (pg.ownership() == DesiredPodGroup.Ownership.OWNED) {
                int counted = Integer.parseInt(pg.spec().getMinResources().get("cpu"));
                assertThat(count)
                        .as(context + "\npods tied to " + pg.name() + " = the pods its plan counts")
                        .isEqualTo(counted);
                Integer override = override(pg, workloads);
                int expected = override != null ? override : atStart.getOrDefault(pg.name(), 0);
                assertThat(pg.spec().getMinMember())
                        .as(context + "\nminMember of " + pg.name())
                        .isEqualTo(expected);
            } else {
                assertThat(count)
                        .as(context + "\npods tied to the adopted " + pg.name() + " = the pods its controller stamped")
                        .isEqualTo(stamped.getOrDefault(pg.name(), 0));
            }
        }
        for (HasMetadata w : workloads) {
            assertAgree(context, w, translation, lookup);
            if (w instanceof Deployment || w instanceof StatefulSet) {
                // a CREATE: the cluster does not hold the object yet
                List<HasMetadata> without = new ArrayList<>(objects);
                without.remove(w);
                assertAgree(context + " (create)", w, translation, Fixtures.lookup(without));
            }
        }
    }

    /** The webhook denies a workload exactly when the reconciler refuses it (another member's fault aside). */
    private void assertAgree(String context, HasMetadata w, TranslationResult translation, WorkloadLookup lookup) {
        String ref = w.getKind() + "/" + NS + "/" + w.getMetadata().getName();
        boolean reconcilerRefuses = translation.findings().stream()
                .anyMatch(f -> f.isRejection()
                        && f.object().toString().equals(ref)
                        && f.reason() != WorkloadReason.GROUP_REJECTED);
        boolean webhookDenies =
                translator.validate(w, Fixtures.TIERS, lookup).stream().anyMatch(Finding::isRejection);
        assertThat(webhookDenies)
                .as(context + "\nwebhook vs reconciler on " + ref)
                .isEqualTo(reconcilerRefuses);
    }

    private static boolean managed(String top, List<HasMetadata> workloads) {
        return workloads.stream()
                .filter(w -> (w.getKind() + "/" + NS + "/" + w.getMetadata().getName()).equals(top))
                .anyMatch(w -> w.getMetadata().getAnnotations() != null
                        && w.getMetadata().getAnnotations().keySet().stream()
                                .anyMatch(k -> k.startsWith("topobridge.io/")));
    }

    /** The min-member a PodGroup's workloads ask for (any member of a group). */
    private static Integer override(DesiredPodGroup pg, List<HasMetadata> workloads) {
        for (HasMetadata w : gangOf(pg, workloads)) {
            String value = w.getMetadata().getAnnotations() == null
                    ? null
                    : w.getMetadata().getAnnotations().get("topobridge.io/min-member");
            if (value != null) {
                return Integer.parseInt(value.trim());
            }
        }
        return null;
    }

    /**
     * Whether a pod exists before any pod of its gang runs, as its controller creates them: an OrderedReady
     * StatefulSet makes pod 0 first, LWS under LeaderReady makes the leaders first; everything else at once.
     */
    private static boolean existsAtStart(Pod pod, List<HasMetadata> workloads) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        HasMetadata top = workloads.stream()
                .filter(w ->
                        labels.get(TOP).equals(ref(w.getKind(), w.getMetadata().getName())))
                .findFirst()
                .orElseThrow();
        if (top instanceof StatefulSet sts) {
            return "Parallel".equals(sts.getSpec().getPodManagementPolicy())
                    || sts.getSpec().getReplicas() <= 1
                    || pod.getMetadata().getName().endsWith("-0");
        }
        String workerIndex = labels.get("leaderworkerset.sigs.k8s.io/worker-index");
        if (workerIndex == null || "0".equals(workerIndex) || !(top instanceof GenericKubernetesResource custom)) {
            return true;
        }
        Map<String, Object> spec =
                ControllersSimulation.map(custom.getAdditionalProperties().get("spec"));
        if ("DisaggregatedSet".equals(top.getKind())) {
            for (Object role : (List<?>) spec.get("roles")) {
                Map<String, Object> r = ControllersSimulation.map(role);
                if (r.get("name").equals(labels.get("disaggregatedset.x-k8s.io/role"))) {
                    spec = ControllersSimulation.map(r.get("spec"));
                }
            }
        }
        return !"LeaderReady".equals(spec.get("startupPolicy"));
    }

    private static List<HasMetadata> gangOf(DesiredPodGroup pg, List<HasMetadata> workloads) {
        String key = pg.annotations().get(PodGroupBuilder.GANG_ANNOTATION);
        if (key.startsWith("Group/")) {
            String group = key.substring("Group/".length());
            return workloads.stream()
                    .filter(w -> w.getMetadata().getAnnotations() != null
                            && group.equals(w.getMetadata().getAnnotations().get("topobridge.io/group")))
                    .toList();
        }
        return workloads.stream()
                .filter(w -> key.equals(w.getKind() + "/" + w.getMetadata().getName()))
                .toList();
    }

    // ---- generators ---------------------------------------------------------------------------------------

    /** The label the simulated pods carry to say which user workload governs them (the bridge ignores it). */
    static final String TOP = "sim/top";

    private static List<HasMetadata> generate(String kind, Random random) {
        return switch (kind) {
            case "Deployment", "StatefulSet" -> List.of(replicated(kind, "w", random, annotations(random, 6)));
            case "LeaderWorkerSet" -> List.of(lws("lws", random, annotations(random, 10), random.nextInt(5) == 0));
            case "DisaggregatedSet" -> List.of(ds(random));
            case "StormService" -> List.of(storm(random));
            case "RoleSet" -> List.of(roleSet(random));
            case "PodSet" -> List.of(podSet(random));
            default -> group(random);
        };
    }

    /** Random bridge annotations (none at times: an unmanaged workload), mostly valid. */
    private static Map<String, String> annotations(Random random, int maxMinMember) {
        Map<String, String> out = new LinkedHashMap<>();
        if (random.nextInt(6) == 0) {
            return out;
        }
        out.put("topobridge.io/highest-tier", TIERS.get(random.nextInt(TIERS.size())));
        if (random.nextInt(3) == 0) {
            out.put("topobridge.io/mode", random.nextInt(5) == 0 ? "firm" : random.nextBoolean() ? "hard" : "soft");
        }
        if (random.nextInt(3) == 0) {
            out.put("topobridge.io/min-member", String.valueOf(1 + random.nextInt(maxMinMember)));
        }
        if (random.nextInt(4) == 0) {
            out.put("topobridge.io/subgroup-highest-tier", random.nextBoolean() ? "nvlink" : "1");
        }
        return out;
    }

    private static Map<String, Object> template(String top) {
        return Map.of(
                "metadata",
                Map.of("labels", Map.of(TOP, top)),
                "spec",
                Map.of(
                        "containers",
                        List.of(Map.of(
                                "name", "c", "image", "x", "resources", Map.of("requests", Map.of("cpu", "1"))))));
    }

    private static String ref(String kind, String name) {
        return kind + "/" + NS + "/" + name;
    }

    private static GenericKubernetesResource custom(
            String apiVersion, String kind, String name, Map<String, String> annotations, Map<String, Object> spec) {
        var out = new GenericKubernetesResource();
        out.setApiVersion(apiVersion);
        out.setKind(kind);
        out.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(NS)
                .withUid("uid-" + name)
                .withAnnotations(annotations.isEmpty() ? null : annotations)
                .build());
        out.setAdditionalProperty("spec", spec);
        return out;
    }

    private static HasMetadata replicated(String kind, String name, Random random, Map<String, String> annotations) {
        String top = ref(kind, name);
        Map<String, Object> spec = new LinkedHashMap<>(Map.of(
                "replicas",
                random.nextInt(5),
                "selector",
                Map.of("matchLabels", Map.of(TOP, top)),
                "template",
                template(top)));
        if ("StatefulSet".equals(kind) && random.nextBoolean()) {
            spec.put("podManagementPolicy", "Parallel");
        }
        Map<String, Object> object = Map.of(
                "apiVersion",
                "apps/v1",
                "kind",
                kind,
                "metadata",
                Map.of("name", name, "namespace", NS, "uid", "uid-" + name, "annotations", annotations),
                "spec",
                spec);
        Class<? extends HasMetadata> type = "Deployment".equals(kind) ? Deployment.class : StatefulSet.class;
        return Fixtures.SERIALIZATION.convertValue(object, type);
    }

    private static HasMetadata lws(String name, Random random, Map<String, String> annotations, boolean provider) {
        int size = 1 + random.nextInt(4);
        Map<String, Object> lwt = new LinkedHashMap<>();
        lwt.put("size", size);
        String top = ref("LeaderWorkerSet", name);
        lwt.put("workerTemplate", template(top));
        if (random.nextBoolean()) {
            lwt.put("leaderTemplate", template(top));
        }
        if (random.nextInt(3) == 0) {
            lwt.put("subGroupPolicy", Map.of("subGroupSize", 1 + random.nextInt(size)));
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", random.nextInt(4));
        spec.put("leaderWorkerTemplate", lwt);
        if (random.nextInt(3) == 0) {
            spec.put("startupPolicy", "LeaderReady");
        }
        Map<String, String> all = new LinkedHashMap<>(annotations);
        if (provider) {
            all.put("sim/volcano-provider", "true");
        }
        return custom("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", name, all, spec);
    }

    private static HasMetadata ds(Random random) {
        String top = ref("DisaggregatedSet", "ds");
        List<Object> roles = new ArrayList<>();
        for (String role : random.nextBoolean() ? List.of("prefill", "decode") : List.of("decode")) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("name", role);
            Map<String, Object> roleSpec = new LinkedHashMap<>(Map.of(
                    "replicas",
                    random.nextInt(4),
                    "leaderWorkerTemplate",
                    Map.of("size", 1 + random.nextInt(3), "workerTemplate", template(top))));
            if (random.nextInt(3) == 0) {
                roleSpec.put("startupPolicy", "LeaderReady");
            }
            r.put("spec", roleSpec);
            if (random.nextInt(3) == 0) {
                r.put("scaling", Map.of("mode", "External", "simReplicas", random.nextInt(4)));
            }
            roles.add(r);
        }
        return custom(
                "disaggregatedset.x-k8s.io/v1",
                "DisaggregatedSet",
                "ds",
                annotations(random, 12),
                Map.of("slices", 1 + random.nextInt(3), "roles", roles));
    }

    private static Map<String, Object> roleSetSpec(Random random, String top, boolean roleVolcanoAllowed) {
        List<Object> roles = new ArrayList<>();
        for (String role : List.of("routing", "prefill", "decode").subList(0, 1 + random.nextInt(3))) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("name", role);
            r.put("replicas", random.nextInt(4));
            int podGroupSize = random.nextInt(4);
            if (podGroupSize > 0) {
                r.put("podGroupSize", podGroupSize);
            }
            r.put("template", template(top));
            if (roleVolcanoAllowed && podGroupSize > 1 && random.nextInt(4) == 0) {
                r.put("schedulingStrategy", Map.of("volcanoSchedulingStrategy", Map.of("minMember", podGroupSize)));
            }
            roles.add(r);
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("roles", roles);
        if (random.nextInt(5) == 0) {
            spec.put("schedulingStrategy", Map.of("volcanoSchedulingStrategy", Map.of("minMember", 1)));
        }
        return spec;
    }

    /** An AIBrix object with random annotations, then the spec {@code spec} draws (in that order). */
    private static HasMetadata aibrix(
            String kind, String name, Random random, Function<Random, Map<String, Object>> spec) {
        var annotations = annotations(random, 12);
        return custom("orchestration.aibrix.ai/v1alpha1", kind, name, annotations, spec.apply(random));
    }

    private static HasMetadata storm(Random random) {
        String top = ref("StormService", "ss");
        return aibrix(
                "StormService",
                "ss",
                random,
                r -> Map.of("replicas", r.nextInt(4), "template", Map.of("spec", roleSetSpec(r, top, true))));
    }

    private static HasMetadata roleSet(Random random) {
        String top = ref("RoleSet", "rs");
        return aibrix("RoleSet", "rs", random, r -> roleSetSpec(r, top, true));
    }

    private static HasMetadata podSet(Random random) {
        String top = ref("PodSet", "ps");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("podGroupSize", random.nextInt(5));
        spec.put("template", template(top));
        if (random.nextInt(4) == 0) {
            spec.put("schedulingStrategy", Map.of("volcanoSchedulingStrategy", Map.of("minMember", 1)));
        }
        return custom("orchestration.aibrix.ai/v1alpha1", "PodSet", "ps", annotations(random, 5), spec);
    }

    /** Two or three Deployments, StatefulSets and LWSs of one group, the first carrying the topology. */
    private static List<HasMetadata> group(Random random) {
        List<HasMetadata> out = new ArrayList<>();
        int members = 2 + random.nextInt(2);
        for (int i = 0; i < members; i++) {
            Map<String, String> annotations = i == 0 ? annotations(random, 14) : new LinkedHashMap<>();
            annotations.put("topobridge.io/group", "g");
            if (i > 0 && random.nextInt(6) == 0) {
                annotations.put("topobridge.io/highest-tier", TIERS.get(random.nextInt(TIERS.size())));
            }
            String name = "m" + i;
            out.add(
                    switch (random.nextInt(3)) {
                        case 0 -> replicated("Deployment", name, random, annotations);
                        case 1 -> replicated("StatefulSet", name, random, annotations);
                        default -> lws(name, random, annotations, false);
                    });
        }
        return out;
    }
}
