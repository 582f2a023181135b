package io.topobridge.process;

/** A part whose work is passes at a fixed delay: it starts and stops with them, and has no first pass to wait for. */
public interface PeriodicPart extends ProcessPart {

    /** The part's passes. */
    PeriodicTask passes();

    @Override
    default void start() {
        passes().start();
    }

    @Override
    default void stop() {
        passes().stop();
    }

    @Override
    default boolean ready() {
        return true;
    }
}
