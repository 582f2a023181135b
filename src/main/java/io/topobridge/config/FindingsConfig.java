package io.topobridge.config;

import io.smallrye.config.WithDefault;

/** {@code topobridge.findings.*}: how many findings the bridge keeps. */
public interface FindingsConfig {

    /**
     * Most findings one part of the bridge keeps on one object, one counting the others included (at least 2).
     */
    @WithDefault("50")
    int maxPerObject();
}
