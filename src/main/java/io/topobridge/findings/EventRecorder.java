package io.topobridge.findings;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Reason;
import io.topobridge.core.finding.UserText;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Kubernetes Events on the objects findings are about. De-duplicated: the same (object, reason, message)
 * is recorded once until {@link #forget} is called for it (the finding went away), so a resync never
 * repeats an event; when it comes back while its Event still exists, that Event's count goes up. Cluster-scoped objects (Nodes, HyperNodes) get their events in {@code default}.
 */
@ApplicationScoped
public class EventRecorder {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class);
    private static final String COMPONENT = "topobridge";

    @Inject
    KubernetesClient client;

    @Inject
    MeterRegistry meters;

    private final Map<String, Boolean> recorded = new ConcurrentHashMap<>();

    /** Records a Warning event unless the same one was already recorded. Returns true when written. */
    public boolean warning(ObjectRef object, Reason reason, String message) {
        return record(object, reason, message, "Warning");
    }

    /** Records a Normal event unless the same one was already recorded. */
    public boolean normal(ObjectRef object, Reason reason, String message) {
        return record(object, reason, message, "Normal");
    }

    /** Lets the next identical event be recorded again (its cause went away). */
    public void forget(ObjectRef object, Reason reason, String message) {
        recorded.remove(key(object, reason, message));
    }

    private boolean record(ObjectRef object, Reason reason, String message, String type) {
        String key = key(object, reason, message);
        if (recorded.putIfAbsent(key, Boolean.TRUE) != null) {
            return false;
        }
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
                .withReason(reason.reason())
                // Kubernetes refuses an Event note over 1024 bytes
                .withMessage(UserText.line(message, UserText.MAX_MESSAGE_BYTES))
                .withNewSource().withComponent(COMPONENT).endSource()
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
                // the same finding came back while its earlier Event still exists: count it there
                client.v1().events().inNamespace(namespace).withName(event.getMetadata().getName()).edit(existing -> {
                    existing.setCount(Objects.requireNonNullElse(existing.getCount(), 1) + 1);
                    existing.setLastTimestamp(now);
                    return existing;
                });
            }
            meters.counter("topobridge.events", "type", type, "reason", reason.reason()).increment();
            return true;
        } catch (KubernetesClientException e) {
            recorded.remove(key);
            LOG.warnf("cannot record event %s on %s: %s", reason.reason(), object, UserText.excerpt(e.getMessage()));
            return false;
        }
    }

    /** {@code <object>.<hash>}, a valid name of at most 253 characters whatever the object's name. */
    static String eventName(ObjectRef object, String key) {
        String base = object.name().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]", "-")
                .replaceAll("^[^a-z0-9]+", "");
        if (base.length() > 200) {
            base = base.substring(0, 200);
        }
        base = base.replaceAll("[^a-z0-9]+$", "");
        return (base.isEmpty() ? "topobridge" : base) + "." + hash(key);
    }

    private static String key(ObjectRef object, Reason reason, String message) {
        return object + "|" + Objects.requireNonNullElse(object.uid(), "") + "|" + reason.reason() + "|" + message;
    }

    private static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
