package io.topobridge.core.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.workload.WorkloadKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The objects a controller would see: the inputs and what the expansion made so far, by kind (API group and kind,
 * any version), namespace and name, and pods by label, as a controller's informer cache serves them.
 */
public final class Index {

    private final Map<String, HasMetadata> byName = new HashMap<>();
    private final Map<String, List<HasMetadata>> byNamespace = new HashMap<>();
    private final Map<String, List<HasMetadata>> byKind = new HashMap<>();
    private final Map<String, List<HasMetadata>> podsByLabel = new HashMap<>();

    /** {@code group/Kind} of an object ({@code /Pod} for the core group). */
    public static String kindOf(HasMetadata object) {
        return kindOf(object.getApiVersion(), object.getKind());
    }

    public static String kindOf(WorkloadKind kind) {
        return kindOf(kind.apiVersion(), kind.kind());
    }

    public static String kindOf(String apiVersion, String kind) {
        String group =
                apiVersion == null || !apiVersion.contains("/") ? "" : apiVersion.substring(0, apiVersion.indexOf('/'));
        return group + "/" + kind;
    }

    /** Adds an object; false when one of its kind and name is already there (the first one stays). */
    public boolean add(HasMetadata object) {
        String kind = kindOf(object);
        String ns = Build.ns(object);
        if (byName.putIfAbsent(kind + "|" + ns + "|" + Build.name(object), object) != null) {
            return false;
        }
        byNamespace.computeIfAbsent(kind + "|" + ns, k -> new ArrayList<>()).add(object);
        byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(object);
        if ("/Pod".equals(kind)) {
            for (var label : Build.labels(object).entrySet()) {
                podsByLabel
                        .computeIfAbsent(ns + "|" + label.getKey() + "=" + label.getValue(), k -> new ArrayList<>())
                        .add(object);
            }
        }
        return true;
    }

    public Optional<HasMetadata> get(String kind, String namespace, String name) {
        return Optional.ofNullable(byName.get(kind + "|" + namespace + "|" + name));
    }

    public boolean has(String kind, String namespace, String name) {
        return byName.containsKey(kind + "|" + namespace + "|" + name);
    }

    /** Objects of a kind in a namespace, in the order they were added. */
    public List<HasMetadata> list(String kind, String namespace) {
        return byNamespace.getOrDefault(kind + "|" + namespace, List.of());
    }

    /** Objects of a kind in every namespace (AIBrix lists a StormService's RoleSets cluster-wide). */
    public List<HasMetadata> listAll(String kind) {
        return byKind.getOrDefault(kind, List.of());
    }

    public List<HasMetadata> podsWith(String namespace, String key, String value) {
        return podsByLabel.getOrDefault(namespace + "|" + key + "=" + value, List.of());
    }

    /** Pods of a namespace carrying every one of {@code labels}. */
    public List<HasMetadata> podsWith(String namespace, Map<String, String> labels) {
        if (labels.isEmpty()) {
            return list("/Pod", namespace);
        }
        var first = labels.entrySet().iterator().next();
        return podsWith(namespace, first.getKey(), first.getValue()).stream()
                .filter(pod -> Build.labels(pod).entrySet().containsAll(labels.entrySet()))
                .toList();
    }
}
