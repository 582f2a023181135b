package io.topobridge.core.workload.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.capacity.Achieved;
import java.util.List;
import java.util.Optional;

/**
 * What the pods of the cluster say about the gangs: where Volcano placed a gang whose pods are all bound, and the
 * live pods of a namespace (to find those of a gang that do not name its PodGroup). The controller answers from its
 * caches, {@code render} from the pods in its input.
 */
public interface Placements {

    /** Nothing known: no gang is placed, no pod exists. */
    Placements NONE = new Placements() {
        @Override
        public Optional<Achieved> achieved(String namespace, String podGroup) {
            return Optional.empty();
        }

        @Override
        public List<Pod> livePods(String namespace) {
            return List.of();
        }
    };

    /**
     * Where Volcano put the pods of PodGroup {@code namespace/podGroup}, when all of them are bound; empty otherwise,
     * and empty while the pods or HyperNodes are still being read (a gang then keeps the achieved tier its PodGroup
     * carries, rather than a restart writing "none" on every placed gang and then its tier back).
     */
    Optional<Achieved> achieved(String namespace, String podGroup);

    /** The pods of a namespace that are neither finished nor being deleted. */
    List<Pod> livePods(String namespace);
}
