package io.topobridge.apply;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.Topobridge;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The one writer. Every write is a server-side apply with field manager {@code topobridge} that carries only
 * the fields the bridge owns, and is skipped when the current object already holds them and the bridge owns
 * nothing it no longer wants (so a resync with nothing changed writes nothing). Deletes are refused for
 * objects without the bridge's label. Cached objects are only read, never changed.
 *
 * <p>It remembers its recent writes, for every controller at once: an informer cache shows a write only a moment
 * later, so an apply of what was just written over the version the cache still shows is skipped, so is an apply
 * already checked against that version, and a delete is not sent twice; {@link #withUnseenWrites} shows a
 * controller its objects as they will be once its writes land.
 */
@ApplicationScoped
public class Applier {

    private static final Logger LOG = Logger.getLogger(Applier.class);
    /** How long a write is remembered without being touched (a cache shows writes within seconds). */
    private static final Duration REMEMBER = Duration.ofMinutes(10);

    /** What an apply did. */
    public enum Outcome {
        UNCHANGED,
        CREATED,
        UPDATED
    }

    /**
     * What the writer last did to one object: applied {@code applied} (or deleted it) when the cache showed
     * {@code overVersion} (null: absent). At that same version an equal apply needs neither a write nor a check.
     */
    private record Recent(JsonNode applied, String overVersion, boolean deleted, long at) {}

    private final KubernetesClient client;
    private final MeterRegistry meters;
    private final Map<String, Recent> recent = new ConcurrentHashMap<>();
    private volatile long lastSweep = System.nanoTime();

    public Applier(KubernetesClient client, MeterRegistry meters) {
        this.client = client;
        this.meters = meters;
    }

    /**
     * Applies {@code desired} unless {@code current} (the cached object, or null when absent) already
     * matches it in the fields the bridge owns, or it was just written over that version.
     *
     * @throws KubernetesClientException when the API server refuses the write
     */
    public <T extends HasMetadata> Outcome apply(T desired, T current) {
        return write(desired, current, null);
    }

    /** An apply counted under {@code verb}, or as a create or update when null. */
    private Outcome write(HasMetadata desired, HasMetadata current, String verb) {
        String key = key(desired);
        JsonNode want = json(desired);
        String version = version(current);
        Recent last = recent.get(key);
        HasMetadata effective = current;
        if (last != null && Objects.equals(last.overVersion(), version)) {
            if (last.deleted()) {
                effective = null; // the cache still shows what was deleted
            } else if (last.applied().equals(want)) {
                return Outcome.UNCHANGED;
            }
        }
        if (effective != null && FieldPaths.upToDate(want, json(effective), Topobridge.FIELD_MANAGER)) {
            remember(key, new Recent(want, version, false, System.nanoTime()));
            return Outcome.UNCHANGED;
        }
        if (last != null && !last.deleted() && last.applied().equals(want) && effective != null) {
            // The same intent was just written, yet the cache shows another version without it: another writer's
            // change (say the scheduler's status) made before that write can reach the cache after it. The live
            // object says whether the write is still there; a read, not a second write.
            HasMetadata live = client.resource(desired).get();
            if (live != null && FieldPaths.upToDate(want, json(live), Topobridge.FIELD_MANAGER)) {
                remember(key, new Recent(want, version, false, System.nanoTime()));
                meters.counter("topobridge.api.rechecks", "kind", desired.getKind())
                        .increment();
                LOG.debugf(
                        "%s %s: the cache lags behind a write the object holds", desired.getKind(), describe(desired));
                return Outcome.UNCHANGED;
            }
            effective = live;
        }
        client.resource(desired)
                .fieldManager(Topobridge.FIELD_MANAGER)
                .forceConflicts()
                .serverSideApply();
        remember(key, new Recent(want, version, false, System.nanoTime()));
        Outcome outcome = effective == null ? Outcome.CREATED : Outcome.UPDATED;
        count(desired.getKind(), verb != null ? verb : outcome == Outcome.CREATED ? "create" : "update");
        LOG.debugf("applied %s %s (%s)", desired.getKind(), describe(desired), outcome);
        return outcome;
    }

    /** Whether an apply of {@code desired} would change nothing on {@code current}. */
    public boolean upToDate(HasMetadata desired, HasMetadata current) {
        return FieldPaths.upToDate(json(desired), json(current), Topobridge.FIELD_MANAGER);
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
        String key = key(current);
        Recent last = recent.get(key);
        if (last != null && last.deleted() && Objects.equals(last.overVersion(), version(current))) {
            return false;
        }
        client.resource(current).withGracePeriod(0).delete();
        remember(key, new Recent(null, version(current), true, System.nanoTime()));
        count(current.getKind(), "delete");
        LOG.debugf("deleted %s %s", current.getKind(), describe(current));
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

    /**
     * The cached objects of one kind as they will be once the writes the cache has not shown yet land: deleted ones
     * left out, applied ones as applied (the fields the bridge owns). Writes the cache has caught up with are
     * forgotten.
     *
     * @param cached the cached objects of the kind, by name (cluster-scoped kinds)
     */
    public <T extends HasMetadata> Map<String, T> withUnseenWrites(Class<T> type, String kind, Map<String, T> cached) {
        Map<String, T> out = new HashMap<>(cached);
        String prefix = kind + "/";
        for (var entry : recent.entrySet()) {
            if (!entry.getKey().startsWith(prefix)) {
                continue;
            }
            String name = entry.getKey().substring(entry.getKey().lastIndexOf('/') + 1);
            Recent last = entry.getValue();
            if (!Objects.equals(last.overVersion(), version(cached.get(name)))) {
                recent.remove(entry.getKey(), last); // the cache shows a newer version: nothing is unseen
            } else if (last.deleted()) {
                out.remove(name);
            } else {
                out.put(name, client.getKubernetesSerialization().convertValue(last.applied(), type));
            }
        }
        return out;
    }

    private void remember(String key, Recent write) {
        recent.put(key, write);
        long now = System.nanoTime();
        if (now - lastSweep > REMEMBER.toNanos() / 10) {
            lastSweep = now;
            recent.values().removeIf(r -> now - r.at() > REMEMBER.toNanos());
        }
    }

    private JsonNode json(HasMetadata object) {
        return client.getKubernetesSerialization().convertValue(object, JsonNode.class);
    }

    private static String version(HasMetadata object) {
        return object == null || object.getMetadata() == null
                ? null
                : object.getMetadata().getResourceVersion();
    }

    private static String key(HasMetadata object) {
        String ns = object.getMetadata().getNamespace();
        return object.getKind() + "/" + (ns == null ? "" : ns) + "/"
                + object.getMetadata().getName();
    }

    private void count(String kind, String verb) {
        meters.counter("topobridge.api.writes", "kind", kind, "verb", verb).increment();
    }

    private static String describe(HasMetadata object) {
        String ns = object.getMetadata().getNamespace();
        return ns == null
                ? object.getMetadata().getName()
                : ns + "/" + object.getMetadata().getName();
    }
}
