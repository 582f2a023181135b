package io.topobridge.e2e;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/** A step run over and over on a thread of its own, with a pause between runs, until closed. */
final class Repeating implements AutoCloseable {

    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Thread thread;

    Repeating(String name, Duration pause, Runnable step) {
        thread = new Thread(
                () -> {
                    while (!stopped.get()) {
                        step.run();
                        RealCluster.sleep(pause);
                    }
                },
                name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops after the step under way. */
    @Override
    public void close() {
        stopped.set(true);
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
