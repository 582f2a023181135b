package io.topobridge.testing;

import io.topobridge.config.TopobridgeConfig;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** Every leaf key of the {@code topobridge.*} configuration, read from the @ConfigMapping interfaces. */
public final class ConfigKeys {

    private ConfigKeys() {}

    public static Set<String> all() {
        Set<String> out = new TreeSet<>();
        collect(TopobridgeConfig.class, "topobridge", out);
        return out;
    }

    private static void collect(Class<?> type, String prefix, Set<String> out) {
        for (Method method : type.getMethods()) {
            if (method.getParameterCount() != 0 || method.isDefault() || method.getDeclaringClass() == Object.class) {
                continue;
            }
            String key = prefix + "."
                    + method.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
            Class<?> returned = method.getReturnType();
            if (returned.isInterface() && returned.getPackageName().startsWith("io.topobridge")) {
                collect(returned, key, out);
            } else {
                out.add(key);
            }
        }
    }
}
