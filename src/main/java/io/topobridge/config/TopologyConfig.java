package io.topobridge.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** {@code topobridge.topology.*}: tiers from node labels. */
public interface TopologyConfig {

    /** Build HyperNodes from node labels at all; false leaves HyperNodes alone. */
    @WithDefault("true")
    boolean enabled();

    /**
     * Built-in label scheme: {@code auto} (each node's own scheme), {@code topograph}, {@code aws}, {@code gke},
     * {@code oci}, {@code nvidia-gfd} or {@code volcano}; must stay {@code auto} when {@code tiers} is set.
     */
    @WithDefault("auto")
    String preset();

    /** Explicit tiers, finest first: {@code LABEL[=NAME]} entries (NAME defaults to the key's name part); replaces the presets. */
    Optional<List<String>> tiers();

    /** Quiet period after a node event before the tree is rebuilt. */
    @WithDefault("100ms")
    Duration debounce();

    /** Longest a rebuild waits while node events keep arriving. */
    @WithDefault("1s")
    Duration maxDelay();
}
