package io.topobridge.core.kinds.lws;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.topobridge.core.Topobridge;
import io.topobridge.core.workload.kind.Pods;
import io.topobridge.core.workload.kind.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The PodGroups LWS's own Volcano provider makes, one per group ({@code <lws>-<group>-<revision>}, owned by the
 * group's leader pod): the bridge adopts them rather than making its own.
 */
public final class ProviderGroups {

    /** A PodGroup LWS's Volcano provider made for one group: owned by leader pod {@code <lws>-<group>}. */
    public record ProviderGroup(String podGroup, String lws, int group, String revision) {}

    /**
     * The one test for a PodGroup LWS's Volcano provider made: not the bridge's, controlled by a leader pod
     * {@code <lws>-<group>}, and named after it {@code <lws>-<group>-<revision>}.
     */
    static Optional<ProviderGroup> providerGroup(HasMetadata podGroup) {
        var meta = podGroup.getMetadata();
        if (meta == null || meta.getName() == null || meta.getOwnerReferences() == null) {
            return Optional.empty();
        }
        if (Topobridge.managed(podGroup)) {
            return Optional.empty();
        }
        for (OwnerReference ref : meta.getOwnerReferences()) {
            String owner = ref == null ? null : ref.getName();
            if (owner == null || !"Pod".equals(ref.getKind()) || !meta.getName().startsWith(owner + "-")) {
                continue;
            }
            int dash = owner.lastIndexOf('-');
            int group = dash > 0 ? Pods.index(owner.substring(dash + 1)) : -1;
            String revision = meta.getName().substring(owner.length() + 1);
            if (group >= 0 && !revision.isEmpty()) {
                return Optional.of(new ProviderGroup(meta.getName(), owner.substring(0, dash), group, revision));
            }
        }
        return Optional.empty();
    }

    /** The PodGroups LWS's Volcano provider made for an LWS's groups, sorted by name. */
    public static List<ProviderGroup> providerGroups(String lws, String namespace, Snapshot snapshot) {
        List<ProviderGroup> out = new ArrayList<>();
        for (HasMetadata pg : snapshot.lookup().podGroups(namespace)) {
            providerGroup(pg).filter(p -> p.lws().equals(lws)).ifPresent(out::add);
        }
        out.sort(java.util.Comparator.comparing(ProviderGroup::podGroup));
        return out;
    }

    private ProviderGroups() {}
}
