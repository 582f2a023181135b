package io.topobridge.core.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** What an admission webhook does to a pod a controller creates, offline: the pod as the API server stores it. */
@FunctionalInterface
public interface PodDefaulter {

    /**
     * The pod as admitted (possibly {@code pod} itself); an {@link IllegalArgumentException} when the webhook would
     * refuse it.
     */
    HasMetadata admit(HasMetadata pod, Context ctx);
}
