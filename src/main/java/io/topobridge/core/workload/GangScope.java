package io.topobridge.core.workload;

import java.util.Objects;
import java.util.Optional;

/**
 * The unit the bridge translates at once: one top-level workload ({@link Single}: {@code Deployment/name},
 * {@code StormService/name}…) or one {@code topobridge.io/group} of a namespace ({@link Group}). All PodGroups of
 * a scope are recomputed together, and its key is stamped on the PodGroups the bridge owns.
 */
public sealed interface GangScope permits GangScope.Single, GangScope.Group {

    /** Kind of the key of a {@code topobridge.io/group} scope. */
    String GROUP = "Group";

    String namespace();

    String name();

    /** {@code Kind/name}: the value of the {@code topobridge.io/gang} annotation on owned PodGroups. */
    String key();

    /** One workload that is a gang (or a set of gangs) of its own. */
    record Single(WorkloadKind kind, String namespace, String name) implements GangScope {
        public Single {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String key() {
            return kind.kind() + "/" + name;
        }

        @Override
        public String toString() {
            return namespace + "/" + key();
        }
    }

    /** The workloads of one namespace that carry the same {@code topobridge.io/group} value. */
    record Group(String namespace, String name) implements GangScope {
        public Group {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String key() {
            return GROUP + "/" + name;
        }

        @Override
        public String toString() {
            return namespace + "/" + key();
        }
    }

    /** The scope named by a {@code Kind/name} key in a namespace; empty when the key names no known kind. */
    static Optional<GangScope> parse(String namespace, String key) {
        int slash = key == null ? -1 : key.indexOf('/');
        if (namespace == null || slash <= 0 || slash == key.length() - 1) {
            return Optional.empty();
        }
        String kind = key.substring(0, slash);
        String name = key.substring(slash + 1);
        if (GROUP.equals(kind)) {
            return Optional.of(new Group(namespace, name));
        }
        return WorkloadKind.byKind(kind).map(k -> new Single(k, namespace, name));
    }
}
