package io.topobridge.config;

import io.smallrye.config.WithDefault;

/** {@code topobridge.events.*}: how fast the Events of findings are written, and how many may wait. */
public interface EventsConfig {

    /** Event writes a second, all objects together, once the burst is spent (above 0). */
    @WithDefault("10")
    double qps();

    /** Event writes at once, all objects together (at least 1). */
    @WithDefault("50")
    int burst();

    /** Event writes a second about one object once its burst is spent (above 0; the default is one every 5 minutes). */
    @WithDefault("0.0033333333")
    double perObjectQps();

    /** Event writes at once about one object (at least 1). */
    @WithDefault("25")
    int perObjectBurst();

    /** Most Events waiting to be written; a newer message of a waiting one replaces it (at least 1). */
    @WithDefault("4096")
    int queueSize();
}
