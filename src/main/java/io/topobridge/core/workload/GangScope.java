package io.topobridge.core.workload;

import java.util.Objects;

/**
 * The unit the bridge translates at once: one top-level workload ({@code Deployment/name},
 * {@code StormService/name}…) or one {@code topobridge.io/group} of a namespace ({@code Group/value}). All
 * PodGroups of a scope are recomputed together, and its key is stamped on the PodGroups the bridge owns.
 */
public record GangScope(String namespace, String kind, String name) {

    /** Kind of the scope of a {@code topobridge.io/group}. */
    public static final String GROUP = "Group";

    public GangScope {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    public static GangScope of(WorkloadKind kind, String namespace, String name) {
        return new GangScope(namespace, kind.kind(), name);
    }

    public static GangScope group(String namespace, String group) {
        return new GangScope(namespace, GROUP, group);
    }

    public boolean isGroup() {
        return GROUP.equals(kind);
    }

    /** {@code Kind/name}: the value of the {@code topobridge.io/gang} annotation on owned PodGroups. */
    public String key() {
        return kind + "/" + name;
    }

    /** The scope named by a {@code Kind/name} key in a namespace, or null when the key is malformed. */
    public static GangScope parse(String namespace, String key) {
        if (namespace == null || key == null) {
            return null;
        }
        int slash = key.indexOf('/');
        if (slash <= 0 || slash == key.length() - 1) {
            return null;
        }
        return new GangScope(namespace, key.substring(0, slash), key.substring(slash + 1));
    }

    @Override
    public String toString() {
        return namespace + "/" + key();
    }
}
