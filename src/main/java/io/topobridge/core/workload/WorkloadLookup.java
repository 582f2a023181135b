package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.capacity.TierDomains;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Read access to workloads: informer caches in the controller, the input files in {@code render}.
 * Custom kinds come back as {@code GenericKubernetesResource}, built-in kinds as their typed classes.
 * Implementations must return objects the caller may read but never mutate.
 */
public interface WorkloadLookup {

    Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name);

    List<HasMetadata> list(WorkloadKind kind, String namespace);

    /**
     * The Volcano PodGroups of a namespace, used to find those another controller (AIBrix, LWS's Volcano
     * provider) already made for a gang. Empty where unknown (e.g. {@code render} without PodGroups in its input).
     */
    default List<HasMetadata> podGroups(String namespace) {
        return List.of();
    }

    /**
     * A namespace's annotations, where admins say which Volcano queues its workloads may use
     * ({@code topobridge.io/allowed-queues}) and name its default queue ({@code scheduling.volcano.sh/queue-name}).
     * Empty where the namespace is unknown.
     */
    default Map<String, String> namespaceAnnotations(String namespace) {
        return Map.of();
    }

    /**
     * A namespace's labels (its opt-in label): null when unknown ({@code render} without that Namespace in its input),
     * empty when the namespace has none or does not exist.
     */
    default Map<String, String> namespaceLabels(String namespace) {
        return null;
    }

    /** The ResourceQuotas of a namespace (what its PodGroups may reserve together); empty where unknown. */
    default List<HasMetadata> resourceQuotas(String namespace) {
        return List.of();
    }

    /**
     * The domains of every tier and what they hold, for {@code highest-tier: auto}: from the HyperNodes, nodes and
     * bound pods of the cluster (or of {@code render}'s input). {@link TierDomains#NONE} where unknown; read only
     * when a gang asks for {@code auto}, so an implementation may compute it lazily.
     */
    default TierDomains domains() {
        return TierDomains.NONE;
    }

    /**
     * The autoscalers of a namespace: HorizontalPodAutoscalers and, where AIBrix's autoscaling CRD is installed, its
     * PodAutoscalers (what may grow a gang after its PodGroup is made). Empty where unknown.
     */
    default List<HasMetadata> autoscalers(String namespace) {
        return List.of();
    }

    /**
     * The live pods of a namespace (neither finished nor being deleted), read where a pod's own labels are the only
     * record of a gang: the groups of a LeaderWorkerSet with {@code groupIdentity: Hash} exist as its leader pods'
     * group keys. Empty where unknown (admission, which reads the pod it admits instead).
     */
    default List<Pod> pods(String namespace) {
        return List.of();
    }

    /**
     * A ResourceClaimTemplate ({@code resource.k8s.io/v1}) of a namespace, which pods of a gang may claim devices from.
     * Empty where it does not exist, or where {@link #resourceClaimsUnknown} says none is known.
     */
    default Optional<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate> resourceClaimTemplate(
            String namespace, String name) {
        return Optional.empty();
    }

    /** A ResourceClaim ({@code resource.k8s.io/v1}) of a namespace, shared by the pods that name it; as above. */
    default Optional<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim> resourceClaim(
            String namespace, String name) {
        return Optional.empty();
    }

    /**
     * Why this lookup cannot tell which ResourceClaimTemplates and ResourceClaims exist (e.g. the API is not served,
     * or its cache is still loading), or null when it can: then an absent one does not exist.
     */
    default String resourceClaimsUnknown() {
        return "ResourceClaimTemplates and ResourceClaims are not read here";
    }

    /**
     * This lookup with {@code objects} laid over it: they win over its own of the same kind, namespace and name. So
     * {@code render} sees workloads that are in no cache, and the webhooks see the cluster as it would be with the
     * incoming object (a workload, or a PodGroup) admitted.
     */
    default WorkloadLookup withObjects(Collection<? extends HasMetadata> objects) {
        return new OverlaidLookup(this, objects, null, null, null);
    }

    /** This lookup with what it does not show yet, from {@code recent}. */
    default WorkloadLookup withRecent(Recent recent) {
        return new OverlaidLookup(this, null, recent, null, null);
    }

    /** This lookup with the domains {@code domains} gives, asked for each time they are read. */
    default WorkloadLookup withDomains(Supplier<TierDomains> domains) {
        return new OverlaidLookup(this, null, null, domains, null);
    }

    default WorkloadLookup withPods(Function<String, List<Pod>> pods) {
        return new OverlaidLookup(this, null, null, null, pods);
    }

    /**
     * The objects a lookup has not caught up with: what the bridge has just written or read live, seen before the
     * cache has it.
     */
    interface Recent {

        /** An object the lookup does not hold, asked on its miss; empty when it is not known here either. */
        Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name);

        /** The lookup's list {@code listed} with the objects known here in place of, or besides, its own. */
        List<HasMetadata> list(WorkloadKind kind, String namespace, List<HasMetadata> listed);
    }
}
