package io.topobridge.perf;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Every HyperNode of the cluster as a watch sees it, whoever wrote it, so that a benchmark can take the moment the
 * HyperNodes of one source (the bridge's {@code topobridge}, Volcano's discovery {@code label}) first satisfy a
 * condition: the time of the watch event that made it true.
 */
final class HyperNodeWatch implements AutoCloseable {

    static final String SOURCE_LABEL = "volcano.sh/network-topology-source";

    /** One HyperNode: its source label, tier and the names of its exact-match members. */
    record HyperNode(String name, String source, int tier, List<String> members) {}

    /** The HyperNodes of one source and who lists whom. */
    record Forest(Map<String, HyperNode> byName, Map<String, List<HyperNode>> parents) {

        /** HyperNodes listing {@code member} (a node or a HyperNode). */
        List<HyperNode> parentsOf(String member) {
            return parents.getOrDefault(member, List.of());
        }

        /** The tier at the top of the chain above {@code node} (first parent each step), 0 when it has none. */
        int topTier(String node) {
            List<HyperNode> up = parentsOf(node);
            int top = 0;
            for (int guard = 0; !up.isEmpty() && guard < 16; guard++) {
                top = up.get(0).tier();
                up = parentsOf(up.get(0).name());
            }
            return top;
        }

        /** Members (nodes or HyperNodes) listed by more than one HyperNode. */
        int membersWithSeveralParents() {
            return (int) parents.values().stream().filter(p -> p.size() > 1).count();
        }

        /** Up to {@code limit} members with several parents, as {@code member <- parent, parent}. */
        String severalParentsExamples(int limit) {
            return parents.entrySet().stream()
                    .filter(e -> e.getValue().size() > 1)
                    .sorted(Map.Entry.comparingByKey())
                    .limit(limit)
                    .map(e -> e.getKey() + " <- "
                            + String.join(
                                    ", ",
                                    e.getValue().stream()
                                            .map(HyperNode::name)
                                            .sorted()
                                            .toList()))
                    .collect(java.util.stream.Collectors.joining("; "));
        }

        /** Each HyperNode's tier and member set, by name: what "spec changed" compares. */
        Map<String, String> specs() {
            Map<String, String> out = new TreeMap<>();
            byName.forEach((name, h) -> out.put(name, h.tier() + ":" + new java.util.TreeSet<>(h.members())));
            return out;
        }
    }

    private record Waiter(String source, Predicate<Forest> condition, CompletableFuture<Long> done) {}

    private final Map<String, HyperNode> all = new ConcurrentHashMap<>();
    private final SharedIndexInformer<GenericKubernetesResource> informer;
    private volatile Waiter waiter;

    HyperNodeWatch(KubernetesClient client) {
        informer = client.genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode")
                .inform(
                        new ResourceEventHandler<>() {
                            @Override
                            public void onAdd(GenericKubernetesResource h) {
                                all.put(h.getMetadata().getName(), parse(h));
                                check();
                            }

                            @Override
                            public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource h) {
                                all.put(h.getMetadata().getName(), parse(h));
                                check();
                            }

                            @Override
                            public void onDelete(GenericKubernetesResource h, boolean unknownFinalState) {
                                all.remove(h.getMetadata().getName());
                                check();
                            }
                        },
                        0);
    }

    /** The HyperNodes of {@code source} now. */
    Forest forest(String source) {
        Map<String, HyperNode> byName = new HashMap<>();
        Map<String, List<HyperNode>> parents = new HashMap<>();
        for (HyperNode h : all.values()) {
            if (source.equals(h.source())) {
                byName.put(h.name(), h);
                for (String m : h.members()) {
                    parents.computeIfAbsent(m, k -> new ArrayList<>(2)).add(h);
                }
            }
        }
        return new Forest(byName, parents);
    }

    /**
     * Waits until the HyperNodes of {@code source} satisfy {@code condition} and returns {@link System#nanoTime()}
     * at the watch event that first made it true (now, when it already holds).
     */
    long await(String source, Predicate<Forest> condition, Duration timeout) {
        Waiter w = new Waiter(source, condition, new CompletableFuture<>());
        waiter = w;
        check();
        try {
            return w.done().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "the " + source + " HyperNodes did not get there within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            waiter = null;
        }
    }

    /**
     * {@code node} is listed by exactly one HyperNode, a new one (not in {@code before}), whose chain of parents reaches
     * {@code topTier}: the node's move is reflected from the bottom of the tree to its top.
     */
    static Predicate<Forest> reflectsMove(String node, Set<String> before, int topTier) {
        return forest -> {
            List<HyperNode> up = forest.parentsOf(node);
            if (up.size() != 1 || before.contains(up.get(0).name())) {
                return false;
            }
            HyperNode current = up.get(0);
            for (int guard = 0; guard < 16; guard++) {
                if (current.tier() >= topTier) {
                    return true;
                }
                List<HyperNode> parents = forest.parentsOf(current.name());
                if (parents.isEmpty()) {
                    return false;
                }
                current = parents.get(0);
            }
            return false;
        };
    }

    private void check() {
        Waiter w = waiter;
        if (w != null && !w.done().isDone() && w.condition().test(forest(w.source()))) {
            w.done().complete(System.nanoTime());
        }
    }

    private static HyperNode parse(GenericKubernetesResource h) {
        Map<String, String> labels =
                h.getMetadata().getLabels() == null ? Map.of() : h.getMetadata().getLabels();
        Object specValue = h.getAdditionalProperties().get("spec");
        Map<?, ?> spec = specValue instanceof Map<?, ?> m ? m : Map.of();
        int tier = spec.get("tier") == null ? 0 : Integer.parseInt(String.valueOf(spec.get("tier")));
        List<String> members = new ArrayList<>();
        if (spec.get("members") instanceof List<?> list) {
            for (Object member : list) {
                if (member instanceof Map<?, ?> mm
                        && mm.get("selector") instanceof Map<?, ?> selector
                        && selector.get("exactMatch") instanceof Map<?, ?> exact
                        && exact.get("name") != null) {
                    members.add(String.valueOf(exact.get("name")));
                }
            }
        }
        return new HyperNode(
                h.getMetadata().getName(), labels.getOrDefault(SOURCE_LABEL, ""), tier, List.copyOf(members));
    }

    @Override
    public void close() {
        informer.close();
    }
}
