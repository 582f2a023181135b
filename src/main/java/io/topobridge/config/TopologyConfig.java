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

    /** Built-in label scheme ({@code auto} picks per node); ignored when {@code tiers} is set. */
    @WithDefault("auto")
    String preset();

    /** Explicit tiers, finest first: {@code LABEL[=NAME]} entries; overrides {@code preset}. */
    Optional<List<String>> tiers();

    /** Quiet period after a node event before the tree is rebuilt. */
    @WithDefault("100ms")
    Duration debounce();
}
