package io.topobridge.cache;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.function.BiPredicate;
import java.util.function.Consumer;

/**
 * An informer handler for a listener that only needs to hear that something changed: each object added or removed,
 * and the new object of each update that matters, goes to one consumer (on the informer's thread; keep it quick).
 */
public class OnChange<T> implements ResourceEventHandler<T> {

    private final Consumer<T> changed;
    private final BiPredicate<T, T> matters;

    /** {@code matters}: whether an update, from its old and new object, is news for the listener. */
    public OnChange(Consumer<T> changed, BiPredicate<T, T> matters) {
        this.changed = changed;
        this.matters = matters;
    }

    /** Every update is news. */
    public OnChange(Consumer<T> changed) {
        this(changed, (before, after) -> true);
    }

    @Override
    public void onAdd(T obj) {
        changed.accept(obj);
    }

    @Override
    public void onUpdate(T before, T after) {
        if (matters.test(before, after)) {
            changed.accept(after);
        }
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        changed.accept(obj);
    }
}
