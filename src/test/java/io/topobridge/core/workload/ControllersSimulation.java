package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.testing.PodTemplates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the workloads' own controllers would create, for tests without them, with the names, labels and owners
 * the upstream controllers give: AIBrix's RoleSets for a StormService ({@code <stormservice>-roleset-<5 chars>},
 * the template's labels and annotations, the {@code storm-service-name} label, the StormService as controller),
 * its PodSets and pods; a Deployment's ReplicaSet and pods; a StatefulSet's pods; an LWS's leader and worker
 * StatefulSets and pods (and, with its Volcano provider, a PodGroup per group); a DisaggregatedSet's LWSs. Names
 * are deterministic here. {@link #all} gives every object and pod the controllers make for a set of workloads.
 */
public final class ControllersSimulation {

    /** The LWS template revision the simulated LWS controller stamps. */
    public static final String REVISION = "5f8d9c7b6";

    private ControllersSimulation() {}

    /** Objects and pods the controllers made. */
    public record Made(List<HasMetadata> objects, List<Pod> pods) {
        Made() {
            this(new ArrayList<>(), new ArrayList<>());
        }

        void add(Made other) {
            objects.addAll(other.objects());
            pods.addAll(other.pods());
        }
    }

    /** What every controller makes for these workloads (AIBrix's PodGroups and LWS's provider ones when asked). */
    public static Made all(List<HasMetadata> workloads) {
        var made = new Made();
        for (HasMetadata w : workloads) {
            switch (w.getKind()) {
                case "Deployment" -> made.add(deployment((Deployment) w));
                case "StatefulSet" -> made.add(statefulSet((StatefulSet) w));
                case "LeaderWorkerSet" -> made.add(leaderWorkerSet((GenericKubernetesResource) w, Map.of()));
                case "DisaggregatedSet" -> made.add(disaggregatedSet((GenericKubernetesResource) w));
                case "StormService" -> {
                    for (HasMetadata rs : roleSets(w)) {
                        made.objects().add(rs);
                        made.add(roleSet((GenericKubernetesResource) rs));
                    }
                }
                case "RoleSet" -> made.add(roleSet((GenericKubernetesResource) w));
                case "PodSet" -> made.add(podSet((GenericKubernetesResource) w, Map.of()));
                default -> throw new IllegalArgumentException(w.getKind());
            }
        }
        return made;
    }

    static OwnerReference controllerRef(HasMetadata owner) {
        return new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .build();
    }

    static Pod pod(
            String namespace,
            String name,
            Map<String, String> labels,
            Map<String, String> annotations,
            OwnerReference owner) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(labels)
                .withAnnotations(annotations.isEmpty() ? null : annotations)
                .withOwnerReferences(owner)
                .endMetadata()
                .withSpec(PodTemplates.spec("c", "x"))
                .build();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** The labels of a pod template (a map), which the controllers copy onto the pods they make. */
    @SuppressWarnings("unchecked")
    static Map<String, String> templateLabels(Object template) {
        return (Map<String, String>) map(map(template).get("metadata")).getOrDefault("labels", Map.of());
    }

    private static Map<String, String> merged(Map<String, String> template, Map<String, String> own) {
        Map<String, String> out = new LinkedHashMap<>(template == null ? Map.of() : template);
        out.putAll(own);
        return out;
    }

    static int integer(Object value, int absent) {
        return value instanceof Number n ? n.intValue() : absent;
    }

    /** A ReplicaSet {@code <deployment>-<hash>} and its pods. */
    public static Made deployment(Deployment d) {
        var made = new Made();
        String ns = d.getMetadata().getNamespace();
        String hash = "7d9f" + Math.abs(d.getMetadata().getName().hashCode() % 10);
        ReplicaSet rs = new ReplicaSetBuilder()
                .withNewMetadata()
                .withName(d.getMetadata().getName() + "-" + hash)
                .withNamespace(ns)
                .withUid("uid-rs-" + d.getMetadata().getName())
                .withOwnerReferences(controllerRef(d))
                .endMetadata()
                .build();
        rs.setApiVersion("apps/v1");
        rs.setKind("ReplicaSet");
        made.objects().add(rs);
        int replicas = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        for (int i = 0; i < replicas; i++) {
            made.pods()
                    .add(pod(
                            ns,
                            rs.getMetadata().getName() + "-p" + i,
                            merged(
                                    d.getSpec().getTemplate().getMetadata().getLabels(),
                                    Map.of("pod-template-hash", hash)),
                            Map.of(),
                            controllerRef(rs)));
        }
        return made;
    }

    /** Pods {@code <sts>-<ordinal>}. */
    public static Made statefulSet(StatefulSet s) {
        var made = new Made();
        int replicas = s.getSpec().getReplicas() == null ? 1 : s.getSpec().getReplicas();
        for (int i = 0; i < replicas; i++) {
            made.pods()
                    .add(pod(
                            s.getMetadata().getNamespace(),
                            s.getMetadata().getName() + "-" + i,
                            merged(s.getSpec().getTemplate().getMetadata().getLabels(), Map.of()),
                            Map.of(),
                            controllerRef(s)));
        }
        return made;
    }

    /**
     * LWS's controller: a leader StatefulSet {@code <lws>} owned by the LWS, leader pods {@code <lws>-<group>}, per
     * group a worker StatefulSet {@code <lws>-<group>} owned by its leader pod, workers {@code <lws>-<group>-<i>}.
     * Every pod carries the LWS labels (and {@code extraLabels}, as a DisaggregatedSet's templates do). With the
     * annotation {@code sim/volcano-provider} LWS's Volcano provider makes a PodGroup per group, owned by the leader
     * pod, and stamps it on the group's pods.
     */
    public static Made leaderWorkerSet(GenericKubernetesResource lws, Map<String, String> extraLabels) {
        var made = new Made();
        String ns = lws.getMetadata().getNamespace();
        String name = lws.getMetadata().getName();
        Map<String, Object> spec = map(lws.getAdditionalProperties().get("spec"));
        Map<String, Object> lwt = map(spec.get("leaderWorkerTemplate"));
        int replicas = integer(spec.get("replicas"), 1);
        int size = integer(lwt.get("size"), 1);
        int subGroupSize = integer(map(lwt.get("subGroupPolicy")).get("subGroupSize"), 0);
        boolean provider = lws.getMetadata().getAnnotations() != null
                && lws.getMetadata().getAnnotations().containsKey("sim/volcano-provider");
        var leaderSts = new StatefulSetBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withUid("uid-sts-" + name)
                .withLabels(Map.of("leaderworkerset.sigs.k8s.io/name", name))
                .withOwnerReferences(controllerRef(lws))
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .endSpec()
                .build();
        leaderSts.setApiVersion("apps/v1");
        leaderSts.setKind("StatefulSet");
        made.objects().add(leaderSts);
        for (int group = 0; group < replicas; group++) {
            String leaderName = name + "-" + group;
            Map<String, String> annotations = new LinkedHashMap<>();
            if (provider) {
                String pg = leaderName + "-" + REVISION;
                annotations.put("scheduling.k8s.io/group-name", pg);
                var podGroup = new GenericKubernetesResource();
                podGroup.setApiVersion("scheduling.volcano.sh/v1beta1");
                podGroup.setKind("PodGroup");
                podGroup.setMetadata(new ObjectMetaBuilder()
                        .withName(pg)
                        .withNamespace(ns)
                        .withOwnerReferences(new OwnerReferenceBuilder()
                                .withApiVersion("v1")
                                .withKind("Pod")
                                .withName(leaderName)
                                .withUid("uid-pod-" + leaderName)
                                .withController(true)
                                .build())
                        .build());
                made.objects().add(podGroup);
            }
            for (int worker = 0; worker < size; worker++) {
                Object template = worker == 0 && lwt.containsKey("leaderTemplate")
                        ? lwt.get("leaderTemplate")
                        : lwt.get("workerTemplate");
                Map<String, String> labels = merged(templateLabels(template), extraLabels);
                labels.put("leaderworkerset.sigs.k8s.io/name", name);
                labels.put("leaderworkerset.sigs.k8s.io/group-index", String.valueOf(group));
                labels.put("leaderworkerset.sigs.k8s.io/worker-index", String.valueOf(worker));
                labels.put("leaderworkerset.sigs.k8s.io/template-revision-hash", REVISION);
                if (subGroupSize > 0) {
                    labels.put("leaderworkerset.sigs.k8s.io/subgroup-index", String.valueOf(worker / subGroupSize));
                }
                if (worker == 0) {
                    made.pods().add(pod(ns, leaderName, labels, annotations, controllerRef(leaderSts)));
                } else {
                    var workerSts = new OwnerReferenceBuilder()
                            .withApiVersion("apps/v1")
                            .withKind("StatefulSet")
                            .withName(leaderName)
                            .withUid("uid-sts-" + leaderName)
                            .withController(true)
                            .build();
                    made.pods().add(pod(ns, leaderName + "-" + worker, labels, annotations, workerSts));
                }
            }
            if (size > 1) {
                var workerSts = new StatefulSetBuilder()
                        .withNewMetadata()
                        .withName(leaderName)
                        .withNamespace(ns)
                        .withUid("uid-sts-" + leaderName)
                        .withLabels(Map.of(
                                "leaderworkerset.sigs.k8s.io/name",
                                name,
                                "leaderworkerset.sigs.k8s.io/group-index",
                                String.valueOf(group)))
                        .withOwnerReferences(new OwnerReferenceBuilder()
                                .withApiVersion("v1")
                                .withKind("Pod")
                                .withName(leaderName)
                                .withUid("uid-pod-" + leaderName)
                                .withController(true)
                                .build())
                        .endMetadata()
                        .build();
                workerSts.setApiVersion("apps/v1");
                workerSts.setKind("StatefulSet");
                made.objects().add(workerSts);
            }
        }
        return made;
    }

    /**
     * The DisaggregatedSet controller: per slice and role an LWS {@code <set>-<slice>-<role>} labelled with the set,
     * slice and role (with the role's own spec, the scaler's replicas where a role is scaled externally), whose
     * pods carry those labels too.
     */
    @SuppressWarnings("unchecked")
    public static Made disaggregatedSet(GenericKubernetesResource ds) {
        var made = new Made();
        String ns = ds.getMetadata().getNamespace();
        String name = ds.getMetadata().getName();
        Map<String, Object> spec = map(ds.getAdditionalProperties().get("spec"));
        int slices = integer(spec.get("slices"), 1);
        for (int slice = 0; slice < slices; slice++) {
            for (Object r : (List<Object>) spec.getOrDefault("roles", List.of())) {
                Map<String, Object> role = map(r);
                String roleName = (String) role.get("name");
                Map<String, String> labels = Map.of(
                        "disaggregatedset.x-k8s.io/name",
                        name,
                        "disaggregatedset.x-k8s.io/slice",
                        String.valueOf(slice),
                        "disaggregatedset.x-k8s.io/role",
                        roleName);
                var lws = new GenericKubernetesResource();
                lws.setApiVersion("leaderworkerset.x-k8s.io/v1");
                lws.setKind("LeaderWorkerSet");
                String lwsName = name + "-" + slice + "-" + roleName;
                lws.setMetadata(new ObjectMetaBuilder()
                        .withName(lwsName)
                        .withNamespace(ns)
                        .withUid("uid-lws-" + lwsName)
                        .withLabels(labels)
                        .withOwnerReferences(controllerRef(ds))
                        .build());
                Map<String, Object> lwsSpec = new LinkedHashMap<>(map(role.get("spec")));
                Object external = map(role.get("scaling")).get("simReplicas");
                if (external != null) {
                    lwsSpec.put("replicas", external);
                }
                lws.setAdditionalProperty("spec", lwsSpec);
                made.objects().add(lws);
                made.add(leaderWorkerSet(lws, labels));
            }
        }
        return made;
    }

    @SuppressWarnings("unchecked")
    public static List<HasMetadata> roleSets(HasMetadata stormService) {
        var storm = (GenericKubernetesResource) stormService;
        Map<String, Object> spec =
                (Map<String, Object>) storm.getAdditionalProperties().get("spec");
        Map<String, Object> template = (Map<String, Object>) spec.getOrDefault("template", Map.of());
        Map<String, Object> templateMeta = (Map<String, Object>) template.getOrDefault("metadata", Map.of());
        int replicas = spec.get("replicas") == null ? 1 : ((Number) spec.get("replicas")).intValue();
        List<HasMetadata> out = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            String suffix = PodGroupNames.bounded("x", "-" + storm.getMetadata().getName() + i);
            String random = suffix.substring(suffix.length() - 5).replaceAll("[^a-z0-9]", "b");
            String name = storm.getMetadata().getName() + "-roleset-" + random;
            var labels = new LinkedHashMap<String, String>(
                    (Map<String, String>) templateMeta.getOrDefault("labels", Map.of()));
            labels.put("storm-service-name", storm.getMetadata().getName());
            var annotations = new LinkedHashMap<String, String>(
                    (Map<String, String>) templateMeta.getOrDefault("annotations", Map.of()));
            annotations.put("stormservice.orchestration.aibrix.ai/roleset-index", String.valueOf(i));
            var roleSet = new GenericKubernetesResource();
            roleSet.setApiVersion("orchestration.aibrix.ai/v1alpha1");
            roleSet.setKind("RoleSet");
            roleSet.setMetadata(new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(storm.getMetadata().getNamespace())
                    .withUid("uid-roleset-" + name)
                    .withLabels(labels)
                    .withAnnotations(annotations)
                    .withOwnerReferences(new OwnerReferenceBuilder()
                            .withApiVersion(storm.getApiVersion())
                            .withKind("StormService")
                            .withName(storm.getMetadata().getName())
                            .withUid(storm.getMetadata().getUid())
                            .withController(true)
                            .build())
                    .build());
            roleSet.setAdditionalProperty("spec", template.get("spec"));
            out.add(roleSet);
        }
        return out;
    }

    /**
     * The RoleSet controller: per role, {@code replicas} PodSets {@code <roleset>-<role>-<i>} (labelled with the
     * RoleSet and role) where {@code podGroupSize > 1}, else single pods; with AIBrix's volcanoSchedulingStrategy
     * on the RoleSet (or the role) its PodGroup {@code <roleset>} (or {@code <podset>}), stamped on the pods.
     */
    @SuppressWarnings("unchecked")
    public static Made roleSet(GenericKubernetesResource rs) {
        var made = new Made();
        String ns = rs.getMetadata().getNamespace();
        String name = rs.getMetadata().getName();
        Map<String, Object> spec = map(rs.getAdditionalProperties().get("spec"));
        boolean volcano = map(spec.get("schedulingStrategy")).containsKey("volcanoSchedulingStrategy");
        if (volcano) {
            made.objects().add(aibrixPodGroup(ns, name, rs));
        }
        String storm = rs.getMetadata().getLabels() == null
                ? null
                : rs.getMetadata().getLabels().get("storm-service-name");
        for (Object r : (List<Object>) spec.getOrDefault("roles", List.of())) {
            Map<String, Object> role = map(r);
            String roleName = (String) role.get("name");
            int replicas = integer(role.get("replicas"), 0);
            int podGroupSize = integer(role.get("podGroupSize"), 1);
            boolean roleVolcano = map(role.get("schedulingStrategy")).containsKey("volcanoSchedulingStrategy");
            Map<String, String> labels = new LinkedHashMap<>(templateLabels(role.get("template")));
            labels.put("roleset-name", name);
            labels.put("role-name", roleName);
            if (storm != null) {
                labels.put("storm-service-name", storm);
            }
            for (int i = 0; i < replicas; i++) {
                if (podGroupSize > 1) {
                    var podSet = new GenericKubernetesResource();
                    podSet.setApiVersion("orchestration.aibrix.ai/v1alpha1");
                    podSet.setKind("PodSet");
                    String podSetName = name + "-" + roleName + "-" + i;
                    podSet.setMetadata(new ObjectMetaBuilder()
                            .withName(podSetName)
                            .withNamespace(ns)
                            .withUid("uid-podset-" + podSetName)
                            .withLabels(labels)
                            .withOwnerReferences(controllerRef(rs))
                            .build());
                    podSet.setAdditionalProperty(
                            "spec",
                            Map.of("podGroupSize", podGroupSize, "template", role.getOrDefault("template", Map.of())));
                    made.objects().add(podSet);
                    String groupName = volcano ? name : null;
                    if (!volcano && roleVolcano) {
                        made.objects().add(aibrixPodGroup(ns, podSetName, podSet));
                        groupName = podSetName;
                    }
                    Map<String, String> podLabels = new LinkedHashMap<>(labels);
                    podLabels.put("stormservice.orchestration.aibrix.ai/podset-name", podSetName);
                    made.add(podSet(podSet, podLabels, groupName));
                } else {
                    made.pods()
                            .add(pod(
                                    ns,
                                    name + "-" + roleName + "-" + i,
                                    labels,
                                    volcano ? Map.of("scheduling.k8s.io/group-name", name) : Map.of(),
                                    controllerRef(rs)));
                }
            }
        }
        return made;
    }

    private static HasMetadata aibrixPodGroup(String ns, String name, HasMetadata owner) {
        var podGroup = new GenericKubernetesResource();
        podGroup.setApiVersion("scheduling.volcano.sh/v1beta1");
        podGroup.setKind("PodGroup");
        podGroup.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(ns)
                .withOwnerReferences(controllerRef(owner))
                .build());
        return podGroup;
    }

    /** The PodSet controller: {@code podGroupSize} pods {@code <podset>-<i>} (with AIBrix's PodGroup, when it made one). */
    public static Made podSet(GenericKubernetesResource ps, Map<String, String> labels) {
        Map<String, Object> spec = map(ps.getAdditionalProperties().get("spec"));
        boolean volcano = map(spec.get("schedulingStrategy")).containsKey("volcanoSchedulingStrategy");
        var made = new Made();
        if (volcano) {
            made.objects()
                    .add(aibrixPodGroup(
                            ps.getMetadata().getNamespace(), ps.getMetadata().getName(), ps));
        }
        Map<String, String> podLabels = merged(templateLabels(spec.get("template")), labels);
        podLabels.put(
                "stormservice.orchestration.aibrix.ai/podset-name",
                ps.getMetadata().getName());
        made.add(podSet(ps, podLabels, volcano ? ps.getMetadata().getName() : null));
        return made;
    }

    private static Made podSet(GenericKubernetesResource ps, Map<String, String> labels, String groupName) {
        var made = new Made();
        int size = integer(map(ps.getAdditionalProperties().get("spec")).get("podGroupSize"), 1);
        for (int i = 0; i < size; i++) {
            made.pods()
                    .add(pod(
                            ps.getMetadata().getNamespace(),
                            ps.getMetadata().getName() + "-" + i,
                            labels,
                            groupName == null ? Map.of() : Map.of("scheduling.k8s.io/group-name", groupName),
                            controllerRef(ps)));
        }
        return made;
    }
}
