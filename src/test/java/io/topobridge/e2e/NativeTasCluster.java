package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.testing.FreePort;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A side cluster for Kubernetes' own topology-aware workload scheduling (KEP-5732): etcd of the tier's build,
 * kube-apiserver, kube-controller-manager and kube-scheduler of Kubernetes {@value #MINOR} (built by
 * {@code src/test/go/kubernetes.sh}) with the feature gates {@value #GATES}, and no Volcano. Gangs are
 * {@code Workload} and {@code PodGroup} objects of {@value #API} (beta in 1.37, what kube-scheduler watches) and
 * {@code CompositePodGroup} objects of {@value #COMPOSITE_API} (alpha, the only version that has them); a pod joins
 * its group by {@code spec.schedulingGroup.podGroupName}. kube-controller-manager also runs the PodGroup protection
 * controller (the API server puts a finalizer on every PodGroup that only it removes); {@link FakeKubelet} reports
 * bound pods running.
 *
 * <p>Started beside the tier's cluster on first use by the same launcher ({@link RealCluster#startSide}), in the
 * folder {@code <topobridge.e2e.run>-native-tas}; stopped when the JVM ends. The binaries are built if missing (a
 * cold build takes many minutes: docs/benchmarks.md).
 */
public final class NativeTasCluster implements RealCluster.Side {

    /** The Kubernetes minor that serves the Workload API with topology constraints. */
    public static final String MINOR = "1.37";
    /** The group and version of the Workload API's Workload and PodGroup. */
    public static final String API = "scheduling.k8s.io/v1beta1";
    /** The group and version of its CompositePodGroup. */
    public static final String COMPOSITE_API = "scheduling.k8s.io/v1alpha3";

    static final String GATES = "GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true";
    private static final List<String> OWN = List.of("kube-apiserver", "kube-controller-manager", "kube-scheduler");

    private static RealCluster instance;

    private final Path bin;

    private NativeTasCluster(Path bin) {
        this.bin = bin;
    }

    /** The side cluster of this JVM, its binaries built and the example GPU nodes created on first use. */
    public static synchronized RealCluster get() {
        if (instance == null) {
            RealCluster cluster = RealCluster.startSide(new NativeTasCluster(build()));
            Examples.ensureNodes(cluster.client());
            instance = cluster;
        }
        return instance;
    }

    /** Builds (or links, when cached) the minor's binaries into {@code target/e2e/kubernetes-MINOR/bin}. */
    private static Path build() {
        Path out = Path.of("target", "e2e").toAbsolutePath();
        try {
            Process build = new ProcessBuilder("bash", "src/test/go/kubernetes.sh", MINOR, out.toString())
                    .inheritIO()
                    .start();
            if (build.waitFor() != 0) {
                throw new IllegalStateException("building Kubernetes " + MINOR + " for the native topology-aware"
                        + " scheduling cluster failed (exit " + build.exitValue() + ", src/test/go/kubernetes.sh)");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run src/test/go/kubernetes.sh", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Path bin = out.resolve("kubernetes-" + MINOR).resolve("bin");
        for (String name : OWN) {
            if (!Files.isExecutable(bin.resolve(name))) {
                throw new IllegalStateException(name + " " + MINOR + " is missing under " + bin);
            }
        }
        return bin;
    }

    @Override
    public Path run(Path main) {
        return main.resolveSibling(main.getFileName() + "-native-tas");
    }

    @Override
    public Optional<Path> binary(String name) {
        return OWN.contains(name) ? Optional.of(bin.resolve(name)) : Optional.empty();
    }

    @Override
    public List<String> flags(String name) {
        return switch (name) {
            case "kube-apiserver" ->
                List.of("--feature-gates=" + GATES, "--runtime-config=" + API + "=true," + COMPOSITE_API + "=true");
            // a list flag: this adds to the controllers the tier's cluster runs
            case "kube-controller-manager" ->
                List.of("--feature-gates=" + GATES, "--controllers=podgroup-protection-controller");
            case "kube-scheduler" -> List.of("--feature-gates=" + GATES);
            default -> List.of();
        };
    }

    @Override
    public void start(RealCluster cluster) {
        cluster.launch(
                "kube-scheduler",
                List.of(
                        cluster.binary("kube-scheduler"),
                        // every identity of the cluster is an administrator; the scheduler needs no other
                        "--config=" + cluster.kubeSchedulerConfig(RealCluster.ADMIN),
                        "--bind-address=127.0.0.1",
                        "--secure-port=" + FreePort.find(),
                        "-v=1"),
                Map.of());
    }

    // ---------------------------------------------------------------- the Workload API's objects

    /** One gang: its pods' group, their number and the node label whose one value they must share (null: none). */
    public record Group(String name, int minCount, String topologyKey) {}

    /**
     * A Workload with one PodGroup template per group, or, for several groups, one composite template holding
     * them under {@code compositeKey} (null: no constraint on the composite).
     */
    public static GenericKubernetesResource workload(
            String namespace, String name, List<Group> groups, String compositeKey) {
        List<Map<String, Object>> templates = new ArrayList<>();
        for (Group g : groups) {
            Map<String, Object> t = groupSpec(g.minCount(), g.topologyKey());
            t.put("name", g.name());
            templates.add(t);
        }
        if (groups.size() == 1) {
            return object("Workload", namespace, name, name, Map.of("podGroupTemplates", templates));
        }
        Map<String, Object> composite = compositeSpec(name, groups.size(), compositeKey);
        composite.put("podGroupTemplates", templates);
        return object("Workload", namespace, name, name, Map.of("compositePodGroupTemplates", List.of(composite)));
    }

    /** The CompositePodGroup of a Workload's composite template {@code name}: all its groups or none. */
    public static GenericKubernetesResource compositePodGroup(
            String namespace, String name, int groups, String topologyKey) {
        Map<String, Object> spec = compositeSpec(null, groups, topologyKey);
        spec.put("workloadRef", Map.of("workloadName", name, "templateName", name));
        return object("CompositePodGroup", namespace, name, name, spec);
    }

    /** The PodGroup of the Workload {@code workload}'s template {@code group.name()}, under {@code parent} if set. */
    public static GenericKubernetesResource podGroup(String namespace, String workload, Group group, String parent) {
        Map<String, Object> spec = groupSpec(group.minCount(), group.topologyKey());
        spec.put("workloadRef", Map.of("workloadName", workload, "templateName", group.name()));
        if (parent != null) {
            spec.put("parentCompositePodGroupName", parent);
        }
        return object("PodGroup", namespace, podGroupName(workload, group), workload, spec);
    }

    /** The name of a group's PodGroup object. */
    public static String podGroupName(String workload, Group group) {
        return workload + "-" + group.name();
    }

    /** Puts a pod into the PodGroup {@code podGroup} ({@code spec.schedulingGroup}, which the model lacks). */
    public static void joinGroup(PodSpec pod, String podGroup) {
        pod.setAdditionalProperty("schedulingGroup", Map.of("podGroupName", podGroup));
    }

    /** Deletes a gang's Workload API objects. */
    public static void deleteGroups(KubernetesClient client, String namespace, String workload) {
        client.genericKubernetesResources(API, "PodGroup")
                .inNamespace(namespace)
                .withLabel(WORKLOAD_LABEL, workload)
                .delete();
        client.genericKubernetesResources(COMPOSITE_API, "CompositePodGroup")
                .inNamespace(namespace)
                .withLabel(WORKLOAD_LABEL, workload)
                .delete();
        client.genericKubernetesResources(API, "Workload")
                .inNamespace(namespace)
                .withName(workload)
                .delete();
    }

    private static final String WORKLOAD_LABEL = "e2e.topobridge.io/workload";

    private static Map<String, Object> groupSpec(int minCount, String topologyKey) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("schedulingPolicy", Map.of("gang", Map.of("minCount", minCount)));
        if (topologyKey != null) {
            spec.put("schedulingConstraints", Map.of("topology", List.of(Map.of("key", topologyKey))));
        }
        return spec;
    }

    private static Map<String, Object> compositeSpec(String name, int groups, String topologyKey) {
        Map<String, Object> spec = new LinkedHashMap<>();
        if (name != null) {
            spec.put("name", name);
        }
        spec.put("schedulingPolicy", Map.of("gang", Map.of("minGroupCount", groups)));
        if (topologyKey != null) {
            spec.put("schedulingConstraints", Map.of("topology", List.of(Map.of("key", topologyKey))));
        }
        return spec;
    }

    private static GenericKubernetesResource object(
            String kind, String namespace, String name, String workload, Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(kind.equals("CompositePodGroup") ? COMPOSITE_API : API)
                .withKind(kind)
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .addToLabels(WORKLOAD_LABEL, workload)
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build();
    }
}
