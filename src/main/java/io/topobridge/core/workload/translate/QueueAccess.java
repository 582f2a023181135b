package io.topobridge.core.workload.translate;

import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.annotation.AnnotationParser;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The Volcano queues the workloads of one namespace may use, as its admins decided: the namespace's default queue
 * (Volcano's own namespace annotation {@code scheduling.volcano.sh/queue-name}, else the configured default) and the
 * allow-list {@code topobridge.io/allowed-queues} ({@code *} for any). A namespace without an allow-list gets what
 * {@link WorkloadSettings#unlistedQueues()} says. Namespaces are cluster-scoped and their annotations are written by
 * whoever may update Namespaces, so a tenant who may only create workloads cannot widen its own choice.
 *
 * @param defaultQueue the queue of a workload that names none
 * @param any whether every queue is allowed
 * @param allowed the allowed queues (when not {@code any})
 * @param rule why exactly these queues are allowed, for messages
 * @param invalidDefault the namespace's default-queue annotation when it is not a queue name (else null)
 */
public record QueueAccess(
        String namespace, String defaultQueue, boolean any, Set<String> allowed, String rule, String invalidDefault) {

    public QueueAccess {
        Objects.requireNonNull(defaultQueue, "defaultQueue");
        Objects.requireNonNull(rule, "rule");
        allowed = Set.copyOf(allowed);
    }

    /** The queue policy of {@code namespace}, from its annotations (empty when unknown) and the configuration. */
    static QueueAccess of(String namespace, WorkloadLookup lookup, WorkloadSettings settings) {
        Map<String, String> meta = Objects.requireNonNullElse(lookup.namespaceAnnotations(namespace), Map.of());
        String ns = Objects.requireNonNullElse(namespace, "");
        String rawDefault = meta.get(VolcanoApi.QUEUE_NAME_ANNOTATION);
        String trimmed = rawDefault == null ? null : rawDefault.trim();
        String namespaceDefault = trimmed != null && AnnotationParser.validQueue(trimmed) ? trimmed : null;
        String invalidDefault = trimmed != null && namespaceDefault == null ? rawDefault : null;
        String defaultQueue = namespaceDefault != null ? namespaceDefault : settings.defaultQueue();
        String list = meta.get(Topobridge.ALLOWED_QUEUES);
        Set<String> allowed = new LinkedHashSet<>();
        if (list != null) {
            boolean any = false;
            for (String entry : list.split(",")) {
                String queue = entry.trim();
                if (queue.equals("*")) {
                    any = true;
                } else if (!queue.isEmpty()) {
                    allowed.add(queue);
                }
            }
            String rule = "namespace " + ns + " allows " + Topobridge.ALLOWED_QUEUES + "=" + UserText.quote(list);
            if (namespaceDefault != null) {
                allowed.add(namespaceDefault);
                rule += " and its default queue " + UserText.quote(namespaceDefault) + " ("
                        + VolcanoApi.QUEUE_NAME_ANNOTATION + ")";
            }
            return new QueueAccess(ns, defaultQueue, any, allowed, rule, invalidDefault);
        }
        if (settings.unlistedQueues() == WorkloadSettings.UnlistedQueues.ANY) {
            return new QueueAccess(ns, defaultQueue, true, Set.of(), "any queue", invalidDefault);
        }
        allowed.add(settings.defaultQueue());
        String rule = "namespace " + ns + " has no " + Topobridge.ALLOWED_QUEUES + " annotation, so only ";
        if (namespaceDefault != null && !namespaceDefault.equals(settings.defaultQueue())) {
            allowed.add(namespaceDefault);
            rule += "its default queue " + UserText.quote(namespaceDefault) + " (" + VolcanoApi.QUEUE_NAME_ANNOTATION
                    + ") and the cluster's default queue " + UserText.quote(settings.defaultQueue());
        } else {
            rule += "the default queue " + UserText.quote(defaultQueue);
        }
        rule += " may be used (" + WorkloadSettings.UNLISTED_QUEUES_KEY + "="
                + WorkloadSettings.UnlistedQueues.DEFAULT_ONLY.value() + ")";
        return new QueueAccess(ns, defaultQueue, false, allowed, rule, invalidDefault);
    }

    public boolean allows(String queue) {
        return any || allowed.contains(queue);
    }
}
