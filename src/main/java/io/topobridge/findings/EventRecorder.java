package io.topobridge.findings;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.HyperNodeNames;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kubernetes Events on the objects findings are about, one Event per finding {@link Finding#id() identity}: a new
 * finding creates it; the same finding with another message (a count that moved, a different bad value) counts
 * that Event up and shows the latest message; the same finding unchanged writes nothing, so a resync never
 * repeats an event. Once {@link #forget forgotten} (the finding went away), its return counts the Event up again
 * while it still exists. Cluster-scoped objects (Nodes, HyperNodes) get their events in {@code default}.
 */
@ApplicationScoped
public class EventRecorder {

    private static final String COMPONENT = "topobridge";

    private final KubernetesClient client;
    private final MeterRegistry meters;

    public EventRecorder(KubernetesClient client, MeterRegistry meters) {
        this.client = client;
        this.meters = meters;
    }

    /** The message last recorded for each identity. */
    private final Map<String, String> recorded = new ConcurrentHashMap<>();

    /**
     * Writes the finding's Event (Normal for an info, Warning otherwise) unless this very finding, message included,
     * was recorded last. Returns why the API server refused it, if it did (bounded); a failure is not logged: the
     * caller does, within its own bound.
     */
    Optional<String> write(Finding finding) {
        String key = key(finding.id());
        // Kubernetes refuses an Event note over 1024 bytes (a finding's message never is)
        String message = UserText.line(finding.message(), UserText.MAX_MESSAGE_BYTES);
        String before = recorded.put(key, message);
        if (message.equals(before)) {
            return Optional.empty();
        }
        ObjectRef object = finding.object();
        String type = finding.severity() == Severity.INFO ? "Normal" : "Warning";
        String reason = finding.reason().reason();
        String namespace = object.namespace() == null || object.namespace().isEmpty() ? "default" : object.namespace();
        String now = Instant.now().toString();
        Event event = new EventBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(eventName(object, key))
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(object.apiVersion())
                .withKind(object.kind())
                .withNamespace(object.namespace())
                .withName(object.name())
                .withUid(object.uid())
                .endInvolvedObject()
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withNewSource()
                .withComponent(COMPONENT)
                .endSource()
                .withReportingComponent(COMPONENT)
                .withReportingInstance(Objects.requireNonNullElse(System.getenv("HOSTNAME"), COMPONENT))
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .build();
        try {
            try {
                client.v1().events().inNamespace(namespace).resource(event).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                // the finding's Event exists (it changed, or came back): count it there, with the latest message
                client.v1()
                        .events()
                        .inNamespace(namespace)
                        .withName(event.getMetadata().getName())
                        .edit(existing -> {
                            existing.setCount(Objects.requireNonNullElse(existing.getCount(), 1) + 1);
                            existing.setLastTimestamp(now);
                            existing.setMessage(message);
                            existing.setType(type);
                            return existing;
                        });
            }
            meters.counter("topobridge.events", "type", type, "reason", reason).increment();
            return Optional.empty();
        } catch (KubernetesClientException e) {
            if (before == null) {
                recorded.remove(key, message);
            } else {
                recorded.replace(key, message, before);
            }
            return Optional.of(String.format(
                    "cannot record event %s on %s: %s", reason, object, UserText.excerpt(e.getMessage())));
        }
    }

    /** Lets the finding's next occurrence be recorded again (its cause went away). */
    public void forget(Finding.Id id) {
        recorded.remove(key(id));
    }

    /** {@code <object>.<hash>}, a valid name of at most 253 characters whatever the object's name. */
    static String eventName(ObjectRef object, String key) {
        String base = object.name()
                .toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^a-z0-9.-]", "-")
                .replaceAll("^[^a-z0-9]+", "");
        if (base.length() > 200) {
            base = base.substring(0, 200);
        }
        base = base.replaceAll("[^a-z0-9]+$", "");
        return (base.isEmpty() ? "topobridge" : base) + "." + HyperNodeNames.hash(key, 12);
    }

    private static String key(Finding.Id id) {
        return id.object() + "|" + Objects.requireNonNullElse(id.object().uid(), "") + "|"
                + id.reason().reason() + "|" + id.key();
    }
}
