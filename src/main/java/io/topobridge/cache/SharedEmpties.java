package io.topobridge.cache;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes a cached Kubernetes model object cheaper to keep: every empty list and map in it (the models allocate one per
 * field, and an {@code additionalProperties} map per object) is replaced by the one shared immutable empty instance.
 * For informer stores only, whose objects are read and never changed.
 */
public final class SharedEmpties {

    private static final Map<Class<?>, List<Field>> FIELDS = new ConcurrentHashMap<>();

    /** Replaces the empty collections of {@code object} and of every model object it holds; returns it. */
    public static <T> T apply(T object) {
        walk(object, 0);
        return object;
    }

    private static void walk(Object object, int depth) {
        if (object == null || depth > 16 || !model(object.getClass())) {
            return;
        }
        for (Field field : fields(object.getClass())) {
            try {
                Object value = field.get(object);
                if (value instanceof List<?> list) {
                    if (list.isEmpty()) {
                        field.set(object, List.of());
                    } else {
                        list.forEach(e -> walk(e, depth + 1));
                    }
                } else if (value instanceof Map<?, ?> map) {
                    if (map.isEmpty()) {
                        field.set(object, Map.of());
                    } else {
                        map.values().forEach(e -> walk(e, depth + 1));
                    }
                } else if (value != null && !(value instanceof Collection<?>)) {
                    walk(value, depth + 1);
                }
            } catch (IllegalAccessException e) {
                // a field that cannot be written is left as it is
            }
        }
    }

    private static boolean model(Class<?> type) {
        String name = type.getName();
        return name.startsWith("io.fabric8.kubernetes.api.model.") || name.startsWith("io.topobridge.");
    }

    private static List<Field> fields(Class<?> type) {
        return FIELDS.computeIfAbsent(type, t -> {
            List<Field> out = new ArrayList<>();
            for (Class<?> c = t; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers())
                            && !f.getType().isPrimitive()
                            && (List.class.isAssignableFrom(f.getType())
                                    || Map.class.isAssignableFrom(f.getType())
                                    || model(f.getType()))) {
                        f.setAccessible(true);
                        out.add(f);
                    }
                }
            }
            return out;
        });
    }
}
