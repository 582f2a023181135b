package io.topobridge.perf;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A reproducible cluster's worth of annotated workloads of every kind, for benchmarks: standalone and
 * grouped Deployments, StatefulSets, LeaderWorkerSets, DisaggregatedSets, StormServices with their RoleSets.
 */
public final class WorkloadCorpus {

    private WorkloadCorpus() {}

    /** {@code count} workloads (RoleSets not counted) spread over 50 namespaces. */
    public static List<HasMetadata> build(int count, long seed) {
        var random = new Random(seed);
        List<HasMetadata> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String ns = "team-" + (i % 50);
            int kind = i % 10;
            Map<String, String> annotations = new LinkedHashMap<>();
            annotations.put("topobridge.io/highest-tier", random.nextBoolean() ? "2" : "rack");
            switch (kind) {
                case 0, 1, 2 -> out.add(deployment(ns, "web-" + i, 1 + random.nextInt(8), annotations));
                case 3, 4 -> {
                    annotations.put("topobridge.io/group", "pd-" + (i / 2));
                    annotations.put("topobridge.io/subgroup-highest-tier", "1");
                    out.add(deployment(
                            ns, (kind == 3 ? "prefill-" : "decode-") + i, 1 + random.nextInt(4), annotations));
                }
                case 5 ->
                    out.add(new StatefulSetBuilder()
                            .withMetadata(meta(ns, "db-" + i, annotations))
                            .withNewSpec()
                            .withReplicas(3)
                            .withTemplate(template("2", "16Gi", "1"))
                            .endSpec()
                            .build());
                case 6, 7 -> out.add(lws(ns, "lws-" + i, 1 + random.nextInt(4), 2 + random.nextInt(6), annotations));
                case 8 -> out.add(disaggregated(ns, "ds-" + i, annotations));
                default -> {
                    HasMetadata storm = stormService(ns, "ss-" + i, annotations);
                    out.add(storm);
                    out.add(roleSet(storm));
                }
            }
        }
        return out;
    }

    private static ObjectMetaBuilder metaBuilder(String ns, String name, Map<String, String> annotations) {
        return new ObjectMetaBuilder()
                .withNamespace(ns)
                .withName(name)
                .withUid("uid-" + ns + "-" + name)
                .withAnnotations(new LinkedHashMap<>(annotations));
    }

    private static io.fabric8.kubernetes.api.model.ObjectMeta meta(
            String ns, String name, Map<String, String> annotations) {
        return metaBuilder(ns, name, annotations).build();
    }

    private static PodTemplateSpec template(String cpu, String memory, String gpus) {
        return new PodTemplateSpecBuilder()
                .withNewMetadata()
                .addToLabels("app", "x")
                .endMetadata()
                .withNewSpec()
                .addNewInitContainer()
                .withName("init")
                .withImage("busybox")
                .withNewResources()
                .addToRequests("cpu", new Quantity("500m"))
                .endResources()
                .endInitContainer()
                .addNewContainer()
                .withName("main")
                .withImage("vllm")
                .withNewResources()
                .addToRequests("cpu", new Quantity(cpu))
                .addToRequests("memory", new Quantity(memory))
                .addToLimits("nvidia.com/gpu", new Quantity(gpus))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    private static HasMetadata deployment(String ns, String name, int replicas, Map<String, String> annotations) {
        return new DeploymentBuilder()
                .withMetadata(meta(ns, name, annotations))
                .withNewSpec()
                .withReplicas(replicas)
                .withTemplate(template("4", "32Gi", "1"))
                .endSpec()
                .build();
    }

    private static Map<String, Object> templateMap(String cpu, String gpus) {
        return Map.of(
                "spec",
                Map.of(
                        "containers",
                        List.of(Map.of(
                                "name",
                                "main",
                                "image",
                                "x",
                                "resources",
                                Map.of(
                                        "requests",
                                        Map.of("cpu", cpu, "memory", "64Gi"),
                                        "limits",
                                        Map.of("nvidia.com/gpu", gpus))))));
    }

    private static GenericKubernetesResource generic(
            String apiVersion, String kind, String ns, String name, Map<String, String> annotations, Object spec) {
        var r = new GenericKubernetesResource();
        r.setApiVersion(apiVersion);
        r.setKind(kind);
        r.setMetadata(meta(ns, name, annotations));
        r.setAdditionalProperty("spec", spec);
        return r;
    }

    private static HasMetadata lws(String ns, String name, int replicas, int size, Map<String, String> annotations) {
        return generic(
                "leaderworkerset.x-k8s.io/v1",
                "LeaderWorkerSet",
                ns,
                name,
                annotations,
                Map.of(
                        "replicas",
                        replicas,
                        "leaderWorkerTemplate",
                        Map.of("size", size, "workerTemplate", templateMap("8", "8"))));
    }

    private static HasMetadata disaggregated(String ns, String name, Map<String, String> annotations) {
        return generic(
                "disaggregatedset.x-k8s.io/v1",
                "DisaggregatedSet",
                ns,
                name,
                annotations,
                Map.of(
                        "slices",
                        2,
                        "roles",
                        List.of(
                                Map.of(
                                        "name",
                                        "prefill",
                                        "spec",
                                        Map.of(
                                                "replicas",
                                                4,
                                                "leaderWorkerTemplate",
                                                Map.of("size", 1, "workerTemplate", templateMap("8", "1")))),
                                Map.of(
                                        "name",
                                        "decode",
                                        "spec",
                                        Map.of(
                                                "replicas",
                                                1,
                                                "leaderWorkerTemplate",
                                                Map.of("size", 2, "workerTemplate", templateMap("16", "4")))))));
    }

    private static Map<String, Object> roleSetSpec() {
        return Map.of(
                "roles",
                List.of(
                        Map.of("name", "routing", "replicas", 1, "template", templateMap("1", "0")),
                        Map.of("name", "prefill", "replicas", 2, "podGroupSize", 2, "template", templateMap("8", "1")),
                        Map.of("name", "decode", "replicas", 1, "podGroupSize", 2, "template", templateMap("8", "1"))));
    }

    private static HasMetadata stormService(String ns, String name, Map<String, String> annotations) {
        return generic(
                "orchestration.aibrix.ai/v1alpha1",
                "StormService",
                ns,
                name,
                annotations,
                Map.of("replicas", 1, "template", Map.of("spec", roleSetSpec())));
    }

    private static HasMetadata roleSet(HasMetadata storm) {
        String name = storm.getMetadata().getName() + "-roleset-abcde";
        var r = generic(
                "orchestration.aibrix.ai/v1alpha1",
                "RoleSet",
                storm.getMetadata().getNamespace(),
                name,
                Map.of(),
                roleSetSpec());
        r.getMetadata()
                .setLabels(Map.of("storm-service-name", storm.getMetadata().getName()));
        r.getMetadata()
                .setOwnerReferences(List.of(new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                        .withApiVersion(storm.getApiVersion())
                        .withKind("StormService")
                        .withName(storm.getMetadata().getName())
                        .withUid(storm.getMetadata().getUid())
                        .withController(true)
                        .build()));
        return r;
    }
}
