package io.topobridge.docs;

import io.smallrye.config.WithDefault;
import io.topobridge.config.TopobridgeConfig;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The configuration reference, generated: every leaf key of the {@code @ConfigMapping} root {@link TopobridgeConfig},
 * its type and default read from the interfaces, its description from the Javadoc of its method in the interface's
 * source file (the one place it is written). One table per group ({@code topobridge.topology.*}, …), keys in source
 * order.
 */
public final class ConfigReference {

    /** One key: its group (the root's method), full name, type, default (null: none) and description. */
    public record Key(String group, String name, String type, String defaultValue, String description) {}

    /** One group of keys under the root, with the root method's Javadoc as its title. */
    public record Group(String prefix, String title, List<Key> keys) {}

    private final Path sources;
    private final Map<Class<?>, JavaSource> parsed = new HashMap<>();
    private final List<String> undocumented = new ArrayList<>();

    private ConfigReference(Path sources) {
        this.sources = sources;
    }

    /** The groups of keys, read from the classes and from the sources under {@code sources} (src/main/java). */
    public static List<Group> read(Path sources) {
        ConfigReference reader = new ConfigReference(sources);
        List<Group> groups = new ArrayList<>();
        for (Method method : reader.methods(TopobridgeConfig.class)) {
            String prefix = "topobridge." + kebab(method.getName());
            List<Key> keys = new ArrayList<>();
            reader.collect(method.getReturnType(), prefix, prefix, keys);
            groups.add(new Group(prefix, reader.describe(TopobridgeConfig.class, method), keys));
        }
        if (!reader.undocumented.isEmpty()) {
            throw new IllegalStateException("configuration keys without a Javadoc description in their interface: "
                    + String.join(", ", reader.undocumented));
        }
        return groups;
    }

    /** The Markdown of the generated region: one section and table per group. */
    public static String markdown(List<Group> groups) {
        StringBuilder out = new StringBuilder();
        for (Group group : groups) {
            out.append("\n### `").append(group.prefix()).append(".*`\n\n");
            out.append(group.title()).append("\n\n");
            out.append("| key | type | default | description |\n|---|---|---|---|\n");
            for (Key key : group.keys()) {
                out.append("| `")
                        .append(key.name())
                        .append("` | ")
                        .append(key.type())
                        .append(" | ")
                        .append(key.defaultValue() == null ? "none" : "`" + key.defaultValue() + "`")
                        .append(" | ")
                        .append(key.description())
                        .append(" |\n");
            }
        }
        return out.toString();
    }

    private void collect(Class<?> type, String group, String prefix, List<Key> out) {
        for (Method method : methods(type)) {
            String name = prefix + "." + kebab(method.getName());
            Class<?> returned = method.getReturnType();
            if (returned.isInterface() && returned.getPackageName().startsWith("io.topobridge")) {
                collect(returned, group, name, out);
                continue;
            }
            WithDefault withDefault = method.getAnnotation(WithDefault.class);
            out.add(new Key(
                    group,
                    name,
                    typeOf(method),
                    withDefault == null ? null : withDefault.value(),
                    describe(type, method)));
        }
    }

    /** The mapping methods of {@code type}, in the order its source declares them. */
    private List<Method> methods(Class<?> type) {
        JavaSource source = source(type);
        List<String> order = source.members().stream()
                .filter(m -> m.type().equals(type.getSimpleName()) && m.kind() == JavaSource.Kind.METHOD)
                .map(JavaSource.Member::name)
                .toList();
        return Arrays.stream(type.getDeclaredMethods())
                .filter(m -> m.getParameterCount() == 0 && !m.isDefault() && !m.isSynthetic())
                .filter(m -> !java.lang.reflect.Modifier.isStatic(m.getModifiers()))
                .sorted(Comparator.comparingInt((Method m) -> {
                            int at = order.indexOf(m.getName());
                            return at < 0 ? Integer.MAX_VALUE : at;
                        })
                        .thenComparing(Method::getName))
                .toList();
    }

    private String describe(Class<?> type, Method method) {
        Optional<String> doc = source(type).doc(type.getSimpleName(), method.getName());
        if (doc.isEmpty() || doc.get().isBlank()) {
            undocumented.add(type.getSimpleName() + "." + method.getName() + "()");
            return "";
        }
        return doc.get();
    }

    private JavaSource source(Class<?> type) {
        return parsed.computeIfAbsent(type, t -> {
            Class<?> top = t;
            while (top.getEnclosingClass() != null) {
                top = top.getEnclosingClass();
            }
            Path file = sources.resolve(top.getPackageName().replace('.', '/')).resolve(top.getSimpleName() + ".java");
            return JavaSource.read(file);
        });
    }

    static String typeOf(Method method) {
        Class<?> raw = method.getReturnType();
        Type generic = method.getGenericReturnType();
        if (raw == Optional.class && generic instanceof ParameterizedType p) {
            Type inner = p.getActualTypeArguments()[0];
            return typeName(inner);
        }
        return typeName(generic);
    }

    private static String typeName(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            return "list of " + typeName(p.getActualTypeArguments()[0]) + "s (comma separated)";
        }
        if (!(type instanceof Class<?> c)) {
            return type.getTypeName();
        }
        if (c == boolean.class || c == Boolean.class) {
            return "boolean";
        }
        if (c == int.class || c == Integer.class || c == long.class || c == Long.class) {
            return "integer";
        }
        if (c == Duration.class) {
            return "duration";
        }
        if (c == String.class) {
            return "string";
        }
        if (c.isEnum()) {
            return Arrays.stream(c.getEnumConstants())
                    .map(e -> "`" + ((Enum<?>) e).name().toLowerCase(Locale.ROOT) + "`")
                    .collect(Collectors.joining(" or "));
        }
        return c.getSimpleName();
    }

    /** {@code maxPodgroupsPerNamespace} becomes {@code max-podgroups-per-namespace}, as SmallRye maps names. */
    static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
