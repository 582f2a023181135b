package io.topobridge.apply;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.Topobridge;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The one writer. Every write is a server-side apply with field manager {@code topobridge} that carries only
 * the fields the bridge owns, and is skipped when the current object already holds them and the bridge owns
 * nothing it no longer wants (so a resync with nothing changed writes nothing). Deletes are refused for
 * objects without the bridge's label. Cached objects are only read, never changed.
 */
@ApplicationScoped
public class Applier {

    private static final Logger LOG = Logger.getLogger(Applier.class);

    /** What an apply did. */
    public enum Outcome {
        UNCHANGED,
        CREATED,
        UPDATED
    }

    @Inject
    KubernetesClient client;

    @Inject
    MeterRegistry meters;

    /**
     * Applies {@code desired} unless {@code current} (the cached object, or null when absent) already
     * matches it in the fields the bridge owns.
     *
     * @throws KubernetesClientException when the API server refuses the write
     */
    public <T extends HasMetadata> Outcome apply(T desired, T current) {
        if (current != null && upToDate(desired, current)) {
            return Outcome.UNCHANGED;
        }
        client.resource(desired).fieldManager(Topobridge.FIELD_MANAGER).forceConflicts().serverSideApply();
        Outcome outcome = current == null ? Outcome.CREATED : Outcome.UPDATED;
        count(desired.getKind(), outcome == Outcome.CREATED ? "create" : "update");
        LOG.debugf("applied %s %s (%s)", desired.getKind(), describe(desired), outcome);
        return outcome;
    }

    /** Whether an apply of {@code desired} would change nothing on {@code current}. */
    public boolean upToDate(HasMetadata desired, HasMetadata current) {
        var serialization = client.getKubernetesSerialization();
        JsonNode want = serialization.convertValue(desired, JsonNode.class);
        JsonNode have = serialization.convertValue(current, JsonNode.class);
        return FieldPaths.upToDate(want, have, Topobridge.FIELD_MANAGER);
    }

    /**
     * Deletes an object the bridge made. Refused (returns false, writes nothing) unless the object carries
     * {@code labelKey=labelValue}, so another controller's objects are never deleted.
     */
    public boolean delete(HasMetadata current, String labelKey, String labelValue) {
        Map<String, String> labels = current.getMetadata().getLabels();
        if (labels == null || !Objects.equals(labels.get(labelKey), labelValue)) {
            LOG.warnf("refusing to delete %s %s: it lacks %s=%s", current.getKind(), describe(current), labelKey, labelValue);
            return false;
        }
        client.resource(current).withGracePeriod(0).delete();
        count(current.getKind(), "delete");
        LOG.debugf("deleted %s %s", current.getKind(), describe(current));
        return true;
    }

    /**
     * Gives up every field the bridge owns on another controller's object (e.g. the topology fields on an
     * AIBrix PodGroup) by applying an empty intent
     * ({@code newOfKind} makes an empty object of the same typed class). Writes nothing when the bridge owns nothing there.
     */
    public boolean release(HasMetadata current, Supplier<? extends HasMetadata> newOfKind) {
        HasMetadata empty = newOfKind.get();
        empty.setApiVersion(current.getApiVersion());
        empty.setMetadata(new ObjectMetaBuilder().withName(current.getMetadata().getName())
                .withNamespace(current.getMetadata().getNamespace()).build());
        if (upToDate(empty, current)) {
            return false;
        }
        client.resource(empty).fieldManager(Topobridge.FIELD_MANAGER).forceConflicts().serverSideApply();
        count(current.getKind(), "release");
        return true;
    }

    private void count(String kind, String verb) {
        meters.counter("topobridge.api.writes", "kind", kind, "verb", verb).increment();
    }

    private static String describe(HasMetadata object) {
        String ns = object.getMetadata().getNamespace();
        return ns == null ? object.getMetadata().getName() : ns + "/" + object.getMetadata().getName();
    }
}
