package io.topobridge.controller.workload;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.config.WithDefault;
import io.topobridge.apply.Applier;
import io.topobridge.config.Settings;
import io.topobridge.config.TopobridgeConfig;
import io.topobridge.controller.KindRegistry;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.findings.EventRecorder;
import io.topobridge.findings.FindingsRegistry;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Wires the workload controller by hand, without CDI, against a given API client: the real applier,
 * findings registry and event recorder, configuration from the {@code @WithDefault} values with overrides.
 */
final class Wiring {

    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final ClusterLookup lookup = new ClusterLookup();
    final Applier applier = new Applier();
    final EventRecorder events = new EventRecorder();
    final FindingsRegistry findings = new FindingsRegistry();
    final Settings settings = new Settings();
    final WorkloadController controller = new WorkloadController();
    volatile TierCatalog tiers;
    private Consumer<TierCatalog> tierListener = c -> { };

    Wiring(KubernetesClient client, KindRegistry kinds, TierCatalog tiers, Map<String, String> overrides) {
        this.tiers = tiers;
        set(applier, "client", client);
        set(applier, "meters", meters);
        set(events, "client", client);
        set(events, "meters", meters);
        set(findings, "events", events);
        set(findings, "meters", meters);
        set(settings, "config", config(TopobridgeConfig.class, "", overrides));
        lookup.client = client;
        lookup.kinds = kinds;
        controller.lookup = lookup;
        controller.applier = applier;
        controller.findings = findings;
        controller.settings = settings;
        controller.kinds = kinds;
        controller.client = client;
        controller.tiers = new TierSource() {
            @Override
            public TierCatalog current() {
                return Wiring.this.tiers;
            }

            @Override
            public void addListener(Consumer<TierCatalog> listener) {
                tierListener = listener;
            }
        };
    }

    /** Changes the tiers and tells the controller, as the topology controller would. */
    void tiers(TierCatalog catalog) {
        tiers = catalog;
        tierListener.accept(catalog);
    }

    static void set(Object target, String field, Object value) {
        try {
            Field f = target.getClass().getDeclaredField(field);
            f.setAccessible(true);
            f.set(target, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A config mapping interface answering with its defaults, or {@code overrides} keyed by dashed path. */
    @SuppressWarnings("unchecked")
    static <T> T config(Class<T> type, String prefix, Map<String, String> overrides) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return method.getName().equals("toString") ? type.getSimpleName() : null;
            }
            String key = prefix + dashed(method.getName());
            Class<?> returns = method.getReturnType();
            if (returns.isInterface() && returns.getPackageName().equals("io.topobridge.config")) {
                return config(returns, key + ".", overrides);
            }
            String value = overrides.containsKey(key) ? overrides.get(key) : defaultOf(method);
            return convert(returns, value);
        });
    }

    private static String defaultOf(Method method) {
        WithDefault d = method.getAnnotation(WithDefault.class);
        return d == null ? null : d.value();
    }

    private static Object convert(Class<?> type, String value) {
        if (type == Optional.class) {
            return Optional.empty();
        }
        if (value == null) {
            return null;
        }
        if (type == boolean.class) {
            return Boolean.parseBoolean(value);
        }
        if (type == int.class) {
            return Integer.parseInt(value);
        }
        if (type == Duration.class) {
            return value.endsWith("ms") ? Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)))
                    : Duration.parse("PT" + value.toUpperCase());
        }
        return value;
    }

    private static String dashed(String name) {
        return name.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase();
    }
}
