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
 * objects without the bridge's label, but for the pods of a gang restarted whole ({@link #deletePod}), deleted by uid. Cached objects are only read, never changed.
 *
 * <p>What it wrote or deleted is kept in {@link RecentObjects} until the informer caches show it: an apply over a
 * cached version that does not show the bridge's last write yet compares against that write (no second write, no
 * read), and a delete is not sent twice. The caches the controllers read overlay the same objects, so a controller
 * sees its own writes at once.
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

    private final KubernetesClient client;
    private final MeterRegistry meters;
    private final RecentObjects recent;

    @Inject
    public Applier(KubernetesClient client, MeterRegistry meters, RecentObjects recent) {
        this.client = client;
        this.meters = meters;
        this.recent = recent;
    }

    /**
     * Applies {@code desired} unless {@code current} (the cached object, or null when absent) already
     * matches it in the fields the bridge owns, or the bridge's own later write over it does.
     *
     * @throws KubernetesClientException when the API server refuses the write
     */
    public <T extends HasMetadata> Outcome apply(T desired, T current) {
        return write(desired, current, null);
    }

    /** An apply counted under {@code verb}, or as a create or update when null. */
    private Outcome write(HasMetadata desired, HasMetadata current, String verb) {
        JsonNode want = json(desired);
        HasMetadata effective = recent.current(
                desired.getKind(),
                desired.getMetadata().getNamespace(),
                desired.getMetadata().getName(),
                current,
                HasMetadata.class);
        if (effective != null && FieldPaths.upToDate(want, json(effective), Topobridge.FIELD_MANAGER)) {
            return Outcome.UNCHANGED;
        }
        HasMetadata result = client.resource(desired)
                .fieldManager(Topobridge.FIELD_MANAGER)
                .forceConflicts()
                .serverSideApply();
        recent.written(result);
        Outcome outcome = effective == null ? Outcome.CREATED : Outcome.UPDATED;
        count(desired.getKind(), verb != null ? verb : outcome == Outcome.CREATED ? "create" : "update");
        LOG.debugf("applied %s %s (%s)", desired.getKind(), describe(desired), outcome);
        return outcome;
    }

    /**
     * Deletes an object the bridge made. Refused (returns false, writes nothing) unless the object carries
     * {@code labelKey=labelValue}, so another controller's objects are never deleted; also false when this very
     * version was already deleted (the cache has not caught up).
     */
    public boolean delete(HasMetadata current, String labelKey, String labelValue) {
        Map<String, String> labels = current.getMetadata().getLabels();
        if (labels == null || !Objects.equals(labels.get(labelKey), labelValue)) {
            LOG.warnf(
                    "refusing to delete %s %s: it lacks %s=%s",
                    current.getKind(), describe(current), labelKey, labelValue);
            return false;
        }
        if (recent.deletedButCached(current)) {
            return false;
        }
        client.resource(current).withGracePeriod(0).delete();
        recent.deleted(current);
        count(current.getKind(), "delete");
        LOG.debugf("deleted %s %s", current.getKind(), describe(current));
        return true;
    }

    /**
     * Deletes one pod of another controller's to restart its gang (the controller makes it again): exactly the pod
     * that was seen, by its uid as a precondition, so a pod made since under the same name is left alone; with the
     * pod's own grace period. The only delete of an object the bridge did not make.
     *
     * @return false when the pod is gone already or the name is another pod's now (nothing written)
     * @throws KubernetesClientException on any other refusal or failure
     */
    public boolean deletePod(String namespace, String name, String uid) {
        Objects.requireNonNull(uid, "uid");
        var options = new io.fabric8.kubernetes.api.model.DeleteOptionsBuilder()
                .withApiVersion("v1")
                .withKind("DeleteOptions")
                .withNewPreconditions()
                .withUid(uid)
                .endPreconditions()
                .build();
        try {
            client.raw("/api/v1/namespaces/" + namespace + "/pods/" + name, "DELETE", options);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 409) {
                LOG.debugf("pod %s/%s (uid %s) not deleted: HTTP %d", namespace, name, uid, e.getCode());
                return false;
            }
            throw e;
        }
        count("Pod", "delete");
        LOG.debugf("deleted Pod %s/%s (uid %s)", namespace, name, uid);
        return true;
    }

    /**
     * Gives up every field the bridge owns on another controller's object (e.g. the topology fields on an
     * AIBrix PodGroup) by applying an empty intent ({@code newOfKind} makes an empty object of the same typed
     * class). Writes nothing when the bridge owns nothing there.
     */
    public boolean release(HasMetadata current, Supplier<? extends HasMetadata> newOfKind) {
        HasMetadata empty = newOfKind.get();
        empty.setApiVersion(current.getApiVersion());
        empty.setMetadata(new ObjectMetaBuilder()
                .withName(current.getMetadata().getName())
                .withNamespace(current.getMetadata().getNamespace())
                .build());
        return write(empty, current, "release") != Outcome.UNCHANGED;
    }

    private JsonNode json(HasMetadata object) {
        return client.getKubernetesSerialization().convertValue(object, JsonNode.class);
    }

    private void count(String kind, String verb) {
        meters.counter("topobridge.api.writes", "kind", kind, "verb", verb).increment();
    }

    /** {@code namespace/name}, or the name alone of a cluster-scoped object. */
    public static String describe(HasMetadata object) {
        String ns = object.getMetadata().getNamespace();
        return ns == null
                ? object.getMetadata().getName()
                : ns + "/" + object.getMetadata().getName();
    }
}
