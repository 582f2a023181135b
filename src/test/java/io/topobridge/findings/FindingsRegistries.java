package io.topobridge.findings;

import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.finding.Finding;
import java.util.Collection;
import java.util.Set;

/** Findings registries and their default settings, for tests. */
public final class FindingsRegistries {

    private FindingsRegistries() {}

    /** The defaults of the configuration keys ({@code FindingsConfigTest} checks they are). */
    public static final FindingsSettings DEFAULTS = new FindingsSettings(50, 10, 50, 0.0033333333, 25, 4096);

    /**
     * A registry with the default limits whose publish writes the Events it queued itself, after releasing its lock
     * (tests that read Events right after a publish; the controller uses the background writer).
     */
    public static FindingsRegistry writingOnPublish(EventRecorder events, MeterRegistry meters) {
        EventQueue queue = new EventQueue(events, DEFAULTS, meters);
        return new FindingsRegistry(queue, DEFAULTS, meters) {
            @Override
            public void publish(String source, Set<String> scope, Collection<Finding> current) {
                super.publish(source, scope, current);
                queue.drain();
            }
        };
    }
}
