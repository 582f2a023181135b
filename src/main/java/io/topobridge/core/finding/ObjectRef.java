package io.topobridge.core.finding;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/** Identity of the Kubernetes object a finding or event is about. */
public record ObjectRef(String apiVersion, String kind, String namespace, String name, String uid) {

    public ObjectRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    public static ObjectRef of(HasMetadata object) {
        var meta = object.getMetadata();
        return new ObjectRef(
                object.getApiVersion(),
                object.getKind(),
                meta == null ? null : meta.getNamespace(),
                meta == null || meta.getName() == null ? "<unnamed>" : meta.getName(),
                meta == null ? null : meta.getUid());
    }

    public static ObjectRef node(String name) {
        return new ObjectRef("v1", "Node", null, name, null);
    }

    public static ObjectRef cluster(String kind, String name) {
        return new ObjectRef(null, kind, null, name, null);
    }

    /**
     * {@code Kind/name} or {@code Kind/namespace/name}, as printed in logs and by {@code render}; exactly the
     * names for any object a cluster holds, escaped and cut for a name Kubernetes would refuse.
     */
    @Override
    public String toString() {
        String shown = UserText.identifier(kind) + "/";
        if (namespace != null && !namespace.isEmpty()) {
            shown += UserText.identifier(namespace) + "/";
        }
        return shown + UserText.identifier(name);
    }
}
