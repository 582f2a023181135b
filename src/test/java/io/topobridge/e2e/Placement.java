package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Where Volcano put a gang, read back from the cluster: each pod's {@code spec.nodeName} against the HyperNode
 * tree (members by {@code exactMatch}) of every source.
 */
public final class Placement {

    /** One HyperNode: its tier and the HyperNode above it (null at the top). */
    public record Domain(String name, int tier, String tierName, String parent) {}

    /**
     * The tier the bridge chose for the PodGroup {@code pg} (tier, mode and explanation) and where its pods were
     * placed ({@code placed} null: in no one HyperNode), as one line of a test's output.
     */
    public static String outcome(GenericKubernetesResource pg, Domain placed) {
        Map<String, Object> topology = PodGroups.networkTopology(pg);
        return "chosen %s, %s (%s) -> placed in %s at tier %d (%s)"
                .formatted(
                        topology.get("highestTierAllowed"),
                        topology.get("mode"),
                        pg.getMetadata().getAnnotations().get("topobridge.io/chosen-tier"),
                        placed == null ? "-" : placed.name(),
                        placed == null ? 0 : placed.tier(),
                        placed == null ? "-" : placed.tierName());
    }

    private final Map<String, Domain> domains = new HashMap<>();
    private final Map<String, String> nodeParent = new HashMap<>();

    private Placement(KubernetesClient client) {
        Map<String, String> parentOf = new HashMap<>();
        List<GenericKubernetesResource> hyperNodes = client.genericKubernetesResources(
                        "topology.volcano.sh/v1alpha1", "HyperNode")
                .list()
                .getItems();
        Map<String, Map<String, Object>> specs = new HashMap<>();
        for (GenericKubernetesResource h : hyperNodes) {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec =
                    (Map<String, Object>) h.getAdditionalProperties().get("spec");
            specs.put(h.getMetadata().getName(), spec);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> members = (List<Map<String, Object>>) spec.getOrDefault("members", List.of());
            for (Map<String, Object> member : members) {
                @SuppressWarnings("unchecked")
                Map<String, Object> selector = (Map<String, Object>) member.get("selector");
                @SuppressWarnings("unchecked")
                Map<String, Object> exact = selector == null ? null : (Map<String, Object>) selector.get("exactMatch");
                if (exact == null) {
                    continue;
                }
                String name = String.valueOf(exact.get("name"));
                if ("Node".equals(member.get("type"))) {
                    nodeParent.put(name, h.getMetadata().getName());
                } else {
                    parentOf.put(name, h.getMetadata().getName());
                }
            }
        }
        specs.forEach((name, spec) -> domains.put(
                name,
                new Domain(
                        name,
                        ((Number) spec.get("tier")).intValue(),
                        String.valueOf(spec.getOrDefault("tierName", "")),
                        parentOf.get(name))));
    }

    /** The HyperNode tree as the cluster holds it now. */
    public static Placement of(KubernetesClient client) {
        return new Placement(client);
    }

    /** The chain of HyperNodes above a node, lowest first. */
    public List<Domain> ancestors(String node) {
        List<Domain> out = new ArrayList<>();
        String at = nodeParent.get(node);
        while (at != null && domains.containsKey(at)) {
            Domain d = domains.get(at);
            out.add(d);
            at = d.parent();
        }
        return out;
    }

    /** The lowest HyperNode that holds every one of {@code nodes}; empty when none does. */
    public Optional<Domain> lowestCommon(Collection<String> nodes) {
        Set<String> distinct = new LinkedHashSet<>(nodes);
        if (distinct.isEmpty()) {
            return Optional.empty();
        }
        List<Domain> first = ancestors(distinct.iterator().next());
        for (Domain candidate : first) {
            boolean holdsAll = distinct.stream().allMatch(n -> ancestors(n).contains(candidate));
            if (holdsAll) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The lowest HyperNode that holds the nodes of all {@code pods}; fails the test when none does. */
    public Domain holding(List<Pod> pods) {
        List<String> nodes = pods.stream().map(p -> p.getSpec().getNodeName()).toList();
        return lowestCommon(nodes).orElseThrow(() -> new AssertionError("pods in no common HyperNode: " + nodes));
    }

    /** The gang's pods once {@code count} of them exist and all are bound, waiting up to {@code timeout}. */
    public static List<Pod> bound(
            RealCluster cluster,
            KubernetesClient client,
            String namespace,
            String podGroup,
            int count,
            Duration timeout) {
        cluster.waitFor(count + " pods of " + podGroup + " bound", timeout, () -> {
            List<Pod> now = gangPods(client, namespace, podGroup);
            return now.size() == count && allBound(now);
        });
        return gangPods(client, namespace, podGroup);
    }

    /** Pods of the gang whose PodGroup is {@code podGroup} (by the annotation Volcano reads). */
    public static List<Pod> gangPods(KubernetesClient client, String namespace, String podGroup) {
        return client.pods().inNamespace(namespace).list().getItems().stream()
                .filter(p -> p.getMetadata().getAnnotations() != null
                        && podGroup.equals(p.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name")))
                .toList();
    }

    /** Node names of pods, by a grouping of the pods (e.g. per subgroup label). */
    public static Map<String, List<String>> nodesBy(List<Pod> pods, Function<Pod, String> key) {
        return pods.stream()
                .collect(Collectors.groupingBy(
                        key, TreeMap::new, Collectors.mapping(p -> p.getSpec().getNodeName(), Collectors.toList())));
    }

    /** Whether every pod is bound to a node. */
    public static boolean allBound(List<Pod> pods) {
        return !pods.isEmpty() && pods.stream().allMatch(p -> p.getSpec().getNodeName() != null);
    }

    /** Whether no pod is bound (a gang that does not fit waits whole). */
    public static boolean noneBound(List<Pod> pods) {
        return pods.stream().noneMatch(p -> p.getSpec().getNodeName() != null);
    }
}
