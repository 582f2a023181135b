package io.topobridge.apply;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Objects the bridge has just written, deleted or read live, shown in place of what an informer cache still holds
 * until the cache catches up (the pattern of the Java Operator SDK's temporary resource cache): a create is seen at
 * once, a delete hides the object, and an apply over a cache that has not shown the write yet compares against the
 * written object, so nothing is written or deleted twice. One instance serves every controller and the webhooks.
 *
 * <p>An entry goes when the cache shows the object at the entry's resource version or a later one (the API server's
 * versions are etcd revisions, which only grow; where a version is not a number, only an equal one counts), or after
 * {@link #TTL_NANOS} at the latest, should the cache never show it (a watch that missed the event relists).
 */
@jakarta.inject.Singleton
public final class RecentObjects {

    /** How long an entry may outlive its object's absence from the cache. */
    public static final long TTL_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
    /** At most this many entries; a full map drops the oldest (the cache has surely caught up with those). */
    static final int MAX_ENTRIES = 10_000;

    /** A written or read object ({@code object}), or a deletion ({@code object} null, at {@code version}). */
    private record Entry(HasMetadata object, String version, long at) {
        boolean deleted() {
            return object == null;
        }
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    public RecentObjects() {
        this(System::nanoTime);
    }

    /** Entries timed by {@code clock} (nanoseconds; tests). */
    public RecentObjects(LongSupplier clock) {
        this.clock = clock;
    }

    /** The object the API server returned for a write of the bridge's. */
    public void written(HasMetadata result) {
        if (result != null && result.getMetadata() != null) {
            put(key(result), new Entry(result, version(result), clock.getAsLong()));
        }
    }

    /** An object read live because a cache did not have it yet. */
    public void read(HasMetadata live) {
        if (live == null || live.getMetadata() == null) {
            return;
        }
        String key = key(live);
        Entry known = entries.get(key);
        if (known == null || !known.deleted() && newerOrSame(version(live), known.version())) {
            put(key, new Entry(live, version(live), clock.getAsLong()));
        }
    }

    /** An object the bridge deleted, as it was (its version) when deleted. */
    public void deleted(HasMetadata gone) {
        if (gone != null && gone.getMetadata() != null) {
            put(key(gone), new Entry(null, version(gone), clock.getAsLong()));
        }
    }

    /**
     * The object as it is now: the cached one, or a more recent one the bridge wrote or read; null when absent or
     * deleted by the bridge.
     *
     * @param kind the object's kind ({@code PodGroup}, {@code HyperNode}…)
     * @param cached what the cache holds, or null
     */
    public <T extends HasMetadata> T current(String kind, String namespace, String name, T cached, Class<T> type) {
        return current(key(kind, namespace, name), cached, type);
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> T current(String key, T cached, Class<T> type) {
        Entry entry = entries.get(key);
        if (entry == null) {
            return cached;
        }
        if (stale(entry, cached)) {
            entries.remove(key, entry);
            return cached;
        }
        return entry.deleted() || !type.isInstance(entry.object()) ? null : (T) entry.object();
    }

    /**
     * The objects of one kind and namespace (null: every namespace) as they are now: the cached list with recent
     * writes in place of the versions they supersede, recent creations added and recent deletions left out.
     */
    public <T extends HasMetadata> List<T> current(String kind, String namespace, List<T> cached, Class<T> type) {
        String prefix = namespace == null ? kind + "/" : kind + "/" + namespace + "/";
        if (entries.keySet().stream().noneMatch(key -> key.startsWith(prefix))) {
            return cached;
        }
        Map<String, T> byKey = new LinkedHashMap<>();
        for (T object : cached) {
            byKey.put(key(object, kind), object);
        }
        for (var e : entries.entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                continue;
            }
            T now = current(e.getKey(), byKey.get(e.getKey()), type);
            if (now == null) {
                byKey.remove(e.getKey());
            } else {
                byKey.put(e.getKey(), now);
            }
        }
        return new ArrayList<>(byKey.values());
    }

    /** Whether the bridge deleted this object and the cache still shows the version it deleted. */
    public boolean deletedButCached(HasMetadata cached) {
        Entry entry = entries.get(key(cached));
        return entry != null && entry.deleted() && !stale(entry, cached);
    }

    /** Entries now held (for tests and the status endpoint). */
    public int size() {
        return entries.size();
    }

    private boolean stale(Entry entry, HasMetadata cached) {
        if (clock.getAsLong() - entry.at() > TTL_NANOS) {
            return true;
        }
        if (cached == null) {
            // a creation not cached yet, or a deletion the cache has caught up with
            return entry.deleted();
        }
        String shown = version(cached);
        return entry.deleted() ? newer(shown, entry.version()) : newerOrSame(shown, entry.version());
    }

    private void put(String key, Entry entry) {
        if (entries.size() >= MAX_ENTRIES && !entries.containsKey(key)) {
            long now = clock.getAsLong();
            entries.values().removeIf(e -> now - e.at() > TTL_NANOS);
            if (entries.size() >= MAX_ENTRIES) {
                entries.entrySet().stream()
                        .min(java.util.Comparator.comparingLong(
                                e -> e.getValue().at()))
                        .ifPresent(oldest -> entries.remove(oldest.getKey(), oldest.getValue()));
            }
        }
        entries.put(key, entry);
    }

    /** Whether version {@code a} is the same as or later than {@code b}. */
    static boolean newerOrSame(String a, String b) {
        return Objects.equals(a, b) || newer(a, b);
    }

    /** Whether version {@code a} is later than {@code b}; unknown where either is not a number. */
    static boolean newer(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        try {
            return Long.parseLong(a) > Long.parseLong(b);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String version(HasMetadata object) {
        return object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
    }

    static String key(HasMetadata object) {
        return key(object, object.getKind());
    }

    private static String key(HasMetadata object, String kind) {
        return key(
                kind, object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    static String key(String kind, String namespace, String name) {
        return kind + "/" + (namespace == null ? "" : namespace) + "/" + name;
    }
}
