package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.core.node.DeviceClasses;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Small builders for workload tests: objects from YAML text, the test tier catalog, lookups. */
public final class Fixtures {

    public static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    /** Tiers 1=nvlink, 2=rack, 3=spine. */
    public static final TierCatalog TIERS = TierCatalog.of(
            List.of(
                    new TierCatalog.Tier(1, "nvlink"),
                    new TierCatalog.Tier(2, "rack"),
                    new TierCatalog.Tier(3, "spine")),
            List.of());

    /** The node label keys {@link #LABELLED_TIERS} reads: the GPU clique, a rack and a spine label. */
    public static final String CLIQUE = "nvidia.com/gpu.clique";

    public static final String RACK = "example.com/rack";
    public static final String SPINE = "example.com/spine";

    /** Tiers 1=nvlink, 2=rack, 3=spine, with the node label keys they read (what other schedulers' keys name). */
    public static final TierCatalog LABELLED_TIERS = TierCatalog.of(
            List.of(
                    new TierCatalog.Tier(1, "nvlink"),
                    new TierCatalog.Tier(2, "rack"),
                    new TierCatalog.Tier(3, "spine")),
            List.of(io.topobridge.core.topology.LabelSchemes.explicit(List.of(
                    new io.topobridge.core.topology.TopologySettings.TierLabel(CLIQUE, "nvlink"),
                    new io.topobridge.core.topology.TopologySettings.TierLabel(RACK, "rack"),
                    new io.topobridge.core.topology.TopologySettings.TierLabel(SPINE, "spine")))));

    private Fixtures() {}

    /**
     * The configured defaults: queue {@code default}, only it without an allow-list, 500 PodGroups a namespace, one
     * domain for {@code auto} and no wait for room, 500 gangs a workload, the default DeviceClasses.
     */
    public static WorkloadSettings defaultSettings() {
        return new WorkloadSettings(
                "default",
                WorkloadSettings.UnlistedQueues.DEFAULT_ONLY,
                500,
                1,
                Duration.ZERO,
                500,
                DeviceClasses.DEFAULT);
    }

    /** Every object of a multi-document YAML text (custom kinds as generic resources). */
    public static List<HasMetadata> objects(String yaml) {
        List<HasMetadata> out = new ArrayList<>();
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            if (doc.isBlank()) {
                continue;
            }
            Object parsed = SERIALIZATION.unmarshal(new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)));
            out.add((HasMetadata) parsed);
        }
        return out;
    }

    public static HasMetadata object(String yaml) {
        List<HasMetadata> all = objects(yaml);
        if (all.size() != 1) {
            throw new IllegalArgumentException("expected one object, got " + all.size());
        }
        return all.get(0);
    }

    public static Pod pod(String yaml) {
        return (Pod) object(yaml);
    }

    /** A lookup over the given objects; PodGroups and Pods among them are also served by {@code podGroups()}/{@code pods()}. */
    public static WorkloadLookup lookup(Collection<? extends HasMetadata> objects) {
        var base = new InMemoryLookup(objects);
        List<HasMetadata> podGroups = objects.stream()
                .filter(o -> "PodGroup".equals(o.getKind()))
                .map(o -> (HasMetadata) o)
                .toList();
        List<Pod> pods = objects.stream()
                .filter(Pod.class::isInstance)
                .map(Pod.class::cast)
                .toList();
        List<HasMetadata> autoscalers = objects.stream()
                .filter(o -> io.topobridge.core.workload.Autoscaler.of(o).isPresent())
                .map(o -> (HasMetadata) o)
                .toList();
        return new WorkloadLookup() {
            @Override
            public java.util.Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
                return base.get(kind, namespace, name);
            }

            @Override
            public List<HasMetadata> list(WorkloadKind kind, String namespace) {
                return base.list(kind, namespace);
            }

            @Override
            public List<HasMetadata> podGroups(String namespace) {
                return podGroups.stream()
                        .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                        .toList();
            }

            @Override
            public Map<String, String> namespaceAnnotations(String namespace) {
                return base.namespaceAnnotations(namespace);
            }

            @Override
            public List<HasMetadata> autoscalers(String namespace) {
                return autoscalers.stream()
                        .filter(a -> namespace.equals(a.getMetadata().getNamespace()))
                        .toList();
            }

            @Override
            public java.util.Optional<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate>
                    resourceClaimTemplate(String namespace, String name) {
                return base.resourceClaimTemplate(namespace, name);
            }

            @Override
            public java.util.Optional<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim> resourceClaim(
                    String namespace, String name) {
                return base.resourceClaim(namespace, name);
            }

            @Override
            public String resourceClaimsUnknown() {
                return base.resourceClaimsUnknown();
            }

            @Override
            public List<Pod> pods(String namespace) {
                return pods.stream()
                        .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                        .toList();
            }
        };
    }

    public static WorkloadTranslator translator() {
        return translator(Fixtures.defaultSettings());
    }

    /** Workload settings with these queue rules, limit and domains for {@code auto}; the defaults otherwise. */
    public static WorkloadSettings settings(
            String defaultQueue,
            WorkloadSettings.UnlistedQueues unlisted,
            int maxPodGroupsPerNamespace,
            int autoTierMinDomains) {
        WorkloadSettings d = Fixtures.defaultSettings();
        return new WorkloadSettings(
                defaultQueue,
                unlisted,
                maxPodGroupsPerNamespace,
                autoTierMinDomains,
                d.autoWaitForRoom(),
                d.maxGangsPerWorkload(),
                d.deviceClasses());
    }

    /** Workload settings from the defaults, with the values a test sets. */
    public static SettingsBuilder settings() {
        return new SettingsBuilder();
    }

    /** Builds {@link WorkloadSettings} from the defaults: a test names only what it changes. */
    public static final class SettingsBuilder {
        private final WorkloadSettings d = Fixtures.defaultSettings();
        private int maxPodGroupsPerNamespace = d.maxPodGroupsPerNamespace();
        private Duration autoWaitForRoom = d.autoWaitForRoom();
        private int maxGangsPerWorkload = d.maxGangsPerWorkload();
        private DeviceClasses deviceClasses = d.deviceClasses();

        public SettingsBuilder maxPodGroupsPerNamespace(int max) {
            maxPodGroupsPerNamespace = max;
            return this;
        }

        public SettingsBuilder autoWaitForRoom(Duration wait) {
            autoWaitForRoom = wait;
            return this;
        }

        public SettingsBuilder maxGangsPerWorkload(int max) {
            maxGangsPerWorkload = max;
            return this;
        }

        public SettingsBuilder deviceClasses(DeviceClasses classes) {
            deviceClasses = classes;
            return this;
        }

        public WorkloadSettings build() {
            return new WorkloadSettings(
                    d.defaultQueue(),
                    d.unlistedQueues(),
                    maxPodGroupsPerNamespace,
                    d.autoTierMinDomains(),
                    autoWaitForRoom,
                    maxGangsPerWorkload,
                    deviceClasses);
        }
    }

    /** A translator of the standard kinds on the wall clock, as the edges make it. */
    public static WorkloadTranslator translator(WorkloadSettings settings) {
        return new WorkloadTranslator(settings, Kinds.adapters(), java.time.Clock.systemUTC());
    }

    /** A Namespace with annotations (e.g. the queues its workloads may use), as YAML. */
    public static String namespace(String name, Map<String, String> annotations) {
        var out = new StringBuilder("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ")
                .append(name)
                .append('\n');
        if (!annotations.isEmpty()) {
            out.append("  annotations:\n");
            annotations.forEach((k, v) ->
                    out.append("    ").append(k).append(": \"").append(v).append("\"\n"));
        }
        return out.toString();
    }

    /**
     * A PodGroup the bridge made (labelled as its own) for gang {@code gang} ({@code topobridge.io/gang}), with
     * {@code spec} in flow style (null: none), as YAML.
     */
    public static String bridgePodGroup(String name, String namespace, String gang, String spec) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata:
                  name: %s
                  namespace: %s
                  labels: {app.kubernetes.io/managed-by: topobridge}
                  annotations: {topobridge.io/gang: %s}
                """.formatted(name, namespace, gang) + (spec == null ? "" : "spec: " + spec + "\n");
    }

    /**
     * A Deployment {@code namespace/name} (uid {@code uid-<name>}) of {@code replicas} pods labelled {@code app: <name>},
     * as YAML: {@code metadata} the lines under its metadata besides name, namespace and uid (its annotations, say),
     * {@code podSpec} its pod spec.
     */
    public static String deploymentYaml(String namespace, String name, int replicas, String metadata, String podSpec) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                  namespace: %s
                  uid: uid-%s
                %s\
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                %s""".formatted(name, namespace, name, metadata.indent(2), replicas, name, name, podSpec.indent(6));
    }

    /**
     * The P/D DisaggregatedSet llm/pd as YAML: prefill 2 groups of 1 pod, decode (scaled from outside) 1 group of 2
     * pods, every pod {@code workerTemplate} (flow YAML); {@code annotations} its annotation entries, {@code slices}
     * null leaves slices unset.
     */
    public static String pdSet(String uid, Integer slices, String annotations, String workerTemplate) {
        return """
                apiVersion: disaggregatedset.x-k8s.io/v1
                kind: DisaggregatedSet
                metadata: {name: pd, namespace: llm, uid: %s, annotations: {%s}}
                spec:
                %s\
                  roles:
                  - name: prefill
                    spec: {replicas: 2, leaderWorkerTemplate: {size: 1, workerTemplate: %4$s}}
                  - name: decode
                    scaling: {mode: External}
                    spec: {replicas: 1, leaderWorkerTemplate: {size: 2, workerTemplate: %4$s}}
                """.formatted(uid, annotations, slices == null ? "" : "  slices: " + slices + "\n", workerTemplate);
    }

    /**
     * The StormService llm/ss (uid {@code uid}, one replica, held within {@code tier}) with {@code roles} (each a role
     * in flow YAML) and the RoleSet ss-roleset-abcde AIBrix made of it (uid {@code roleSetUid}), as YAML.
     */
    public static String stormWithRoleSet(String uid, String roleSetUid, String tier, List<String> roles) {
        String list = roles.stream().map(role -> "- " + role + "\n").collect(Collectors.joining());
        return """
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: StormService
                metadata: {name: ss, namespace: llm, uid: %s, annotations: {topobridge.io/highest-tier: %s}}
                spec:
                  replicas: 1
                  template:
                    spec:
                      roles:
                """.formatted(uid, tier) + list.indent(6) + """
                ---
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: RoleSet
                metadata:
                  name: ss-roleset-abcde
                  namespace: llm
                  uid: %s
                  labels: {storm-service-name: ss}
                  ownerReferences: [{apiVersion: orchestration.aibrix.ai/v1alpha1, kind: StormService, name: ss, uid: %s,
                                     controller: true}]
                spec:
                  roles:
                """.formatted(roleSetUid, uid) + list.indent(2);
    }

    /** A Deployment of {@code replicas} pods asking for 1 CPU and 1 GPU each, with the given annotations, as YAML. */
    public static String deployment(String ns, String name, int replicas, Map<String, String> annotations) {
        return DeploymentWrapper.make(name, ns)
                .uid("uid-" + name)
                .replicas(replicas)
                .annotations(annotations)
                .schedulerName(null)
                .cpu("1")
                .gpus(1)
                .yaml();
    }
}
