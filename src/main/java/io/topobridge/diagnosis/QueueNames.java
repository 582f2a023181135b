package io.topobridge.diagnosis;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** Which Volcano queues the bridge's gangs use, and who names them; the queues' states. */
final class QueueNames {

    /** Queue name to state ({@code Open}, {@code Closed}…; empty when Volcano has not written one). */
    static Map<String, String> states(List<Queue> queues) {
        Map<String, String> out = new TreeMap<>();
        for (Queue q : queues) {
            String state = q.getStatus() == null ? null : q.getStatus().getState();
            out.put(q.getMetadata().getName(), state == null ? "" : state);
        }
        return out;
    }

    /**
     * Queues named by managed workloads ({@code topobridge.io/queue} or {@code scheduling.volcano.sh/queue-name} on the
     * workload), by the bridge's PodGroups, and for a managed workload that names none the queue it gets: its
     * namespace's default ({@code scheduling.volcano.sh/queue-name} on the Namespace, from {@code namespaceDefault},
     * which answers null for none), else the configured default queue.
     */
    static Map<String, List<String>> named(
            List<HasMetadata> workloads,
            List<PodGroup> podGroups,
            String defaultQueue,
            Function<String, String> namespaceDefault) {
        Map<String, List<String>> out = new TreeMap<>();
        for (HasMetadata w : workloads) {
            Map<String, String> a = w.getMetadata().getAnnotations();
            if (a == null || a.keySet().stream().noneMatch(k -> k.startsWith(Topobridge.PREFIX))) {
                continue;
            }
            String who = w.getKind() + "/" + w.getMetadata().getNamespace() + "/"
                    + w.getMetadata().getName();
            String queue = a.getOrDefault(Topobridge.QUEUE, a.get(VolcanoApi.QUEUE_NAME_ANNOTATION));
            if (queue == null) {
                String ofNamespace = namespaceDefault.apply(w.getMetadata().getNamespace());
                queue = ofNamespace == null || ofNamespace.isBlank() ? defaultQueue : ofNamespace;
            }
            out.computeIfAbsent(queue, k -> new ArrayList<>()).add(who);
        }
        for (PodGroup pg : podGroups) {
            if (pg.getSpec() != null && pg.getSpec().getQueue() != null) {
                out.computeIfAbsent(pg.getSpec().getQueue(), k -> new ArrayList<>())
                        .add("PodGroup/" + pg.getMetadata().getNamespace() + "/"
                                + pg.getMetadata().getName());
            }
        }
        return out;
    }
}
