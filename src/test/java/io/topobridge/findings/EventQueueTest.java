package io.topobridge.findings;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Event queue on a clock of the test's (no sleeps): coalescing, the global and per-object token buckets, the
 * bounded queue that makes the largest namespace give way, namespaces served in turn, and drops counted by reason.
 */
class EventQueueTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private MockCluster cluster;
    private SimpleMeterRegistry meters;
    private long now = 1_000 * SECOND;

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start();
        meters = new SimpleMeterRegistry();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private EventQueue queue(FindingsSettings settings) {
        return new EventQueue(new EventRecorder(cluster.client(), meters), settings, meters, () -> now);
    }

    private static FindingsSettings settings(double qps, int burst, double perObjectQps, int perObjectBurst, int size) {
        return new FindingsSettings(50, qps, burst, perObjectQps, perObjectBurst, size);
    }

    private static Finding finding(String namespace, String name, String key, String message) {
        return Finding.warning(
                        WorkloadReason.UNKNOWN_ANNOTATION,
                        new ObjectRef("apps/v1", "Deployment", namespace, name, "uid-" + name),
                        message)
                .withKey(key);
    }

    /** Drains, moving the clock on to each next token, until nothing waits; returns the time that took. */
    private long drainAll(EventQueue queue) {
        long started = now;
        long wait;
        while ((wait = queue.drain()) > 0) {
            now += wait;
        }
        return now - started;
    }

    private int writes() {
        return RecordingDispatcher.of(cluster).writes("/events").size();
    }

    private List<Event> events(String namespace) {
        return cluster.client().v1().events().inNamespace(namespace).list().getItems();
    }

    private double dropped(String reason) {
        var counter =
                meters.find("topobridge.events.dropped").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aNewerMessageReplacesTheWaitingOneAndTheEventShowsTheLatest() {
        EventQueue queue = queue(FindingsRegistries.DEFAULTS);
        for (int n = 1; n <= 5; n++) {
            queue.record(finding("a", "web", "", "with " + n + " nodes"));
        }
        assertThat(queue.queued()).isEqualTo(1);
        assertThat(queue.drain()).isEqualTo(-1);
        assertThat(events("a")).singleElement().satisfies(e -> {
            assertThat(e.getMessage()).isEqualTo("with 5 nodes");
            assertThat(e.getCount()).isEqualTo(1);
        });
        assertThat(dropped("superseded")).isEqualTo(4);

        // the same message again is no write; a changed one counts the same Event up
        queue.record(finding("a", "web", "", "with 5 nodes"));
        queue.drain();
        assertThat(writes()).isEqualTo(1);
        queue.record(finding("a", "web", "", "with 6 nodes"));
        queue.drain();
        assertThat(events("a"))
                .singleElement()
                .satisfies(e -> assertThat(e.getCount()).isEqualTo(2));
    }

    @Test
    void aFindingResolvedBeforeItsEventIsWrittenWritesNothingAndItsReturnCountsUp() {
        EventQueue queue = queue(FindingsRegistries.DEFAULTS);
        Finding f = finding("a", "web", "", "bad");
        queue.record(f);
        queue.forget(f.id());
        assertThat(queue.queued()).isZero();
        queue.drain();
        assertThat(writes()).isZero();
        assertThat(dropped("resolved")).isEqualTo(1);

        queue.record(f);
        queue.drain();
        queue.forget(f.id());
        queue.record(f);
        queue.drain();
        assertThat(events("a"))
                .singleElement()
                .satisfies(e -> assertThat(e.getCount()).isEqualTo(2));
    }

    @Test
    void theGlobalBucketSpacesWritesAndLosesNothing() {
        EventQueue queue = queue(settings(2, 3, 100, 100, 100));
        for (int i = 0; i < 10; i++) {
            queue.record(finding("a", "web-" + i, "", "bad"));
        }
        long wait = queue.drain();
        assertThat(writes()).as("the burst").isEqualTo(3);
        assertThat(wait).as("half a second until the next token").isEqualTo(SECOND / 2);
        now += SECOND;
        queue.drain();
        assertThat(writes()).as("two a second").isEqualTo(5);
        assertThat(drainAll(queue)).as("the other five at two a second").isEqualTo(5 * SECOND / 2);
        assertThat(writes()).isEqualTo(10);
        assertThat(events("a")).hasSize(10);
    }

    @Test
    void anObjectOutOfTokensWaitsWhileOthersAreWrittenAndThenGetsItsLatestMessage() {
        EventQueue queue = queue(settings(100, 100, 0.01, 2, 100));
        for (int i = 0; i < 4; i++) {
            queue.record(finding("a", "noisy", "k" + i, "bad " + i));
        }
        queue.record(finding("a", "quiet", "", "bad"));
        long wait = queue.drain();
        assertThat(RecordingDispatcher.of(cluster).writes("/events")).hasSize(3);
        assertThat(events("a"))
                .extracting(e -> e.getInvolvedObject().getName())
                .containsExactlyInAnyOrder("noisy", "noisy", "quiet");
        assertThat(wait).as("one token every 100 s").isEqualTo(100 * SECOND);

        // the waiting one changes meanwhile: its latest message is what is written
        queue.record(finding("a", "noisy", "k3", "bad 3, later"));
        now += 100 * SECOND;
        queue.drain();
        assertThat(writes()).isEqualTo(4);
        now += 100 * SECOND;
        assertThat(queue.drain()).isEqualTo(-1);
        assertThat(events("a"))
                .extracting(Event::getMessage)
                .containsExactlyInAnyOrder("bad 0", "bad 1", "bad 2", "bad 3, later", "bad");
    }

    @Test
    void aFullQueueMakesTheLargestNamespaceGiveWayAndServesNamespacesInTurn() {
        EventQueue queue = queue(settings(1, 1, 100, 100, 4));
        for (int i = 0; i < 4; i++) {
            queue.record(finding("flood", "w" + i, "", "bad"));
        }
        // full: another of the flood's own is dropped, the quiet namespace's takes the place of the flood's oldest
        queue.record(finding("flood", "w4", "", "bad"));
        queue.record(finding("quiet", "web", "", "bad"));
        assertThat(queue.queued()).isEqualTo(4);
        assertThat(dropped("queue-full")).isEqualTo(2);

        // one write at a time: flood, then quiet (its turn), then flood again
        queue.drain();
        now += SECOND;
        queue.drain();
        assertThat(events("quiet")).hasSize(1);
        assertThat(events("flood")).hasSize(1);
        drainAll(queue);
        assertThat(events("flood"))
                .extracting(e -> e.getInvolvedObject().getName())
                .containsExactlyInAnyOrder("w1", "w2", "w3");
    }

    @Test
    void closingCountsWhatWaitsAsDropped() {
        EventQueue queue = queue(settings(1, 1, 100, 100, 100));
        for (int i = 0; i < 5; i++) {
            queue.record(finding("a", "web-" + i, "", "bad"));
        }
        queue.drain();
        queue.close();
        assertThat(writes()).isEqualTo(1);
        assertThat(dropped("shutdown")).isEqualTo(4);
        assertThat(queue.queued()).isZero();
    }

    @Test
    void aRefusedWriteIsCountedAndTheWriterGoesOn() {
        var recorder = new EventRecorder(cluster.client(), meters) {
            @Override
            java.util.Optional<String> write(Finding finding) {
                if (finding.object().namespace().equals("refused")) {
                    throw new io.fabric8.kubernetes.client.KubernetesClientException("refused", 403, null);
                }
                return super.write(finding);
            }
        };
        EventQueue queue = new EventQueue(recorder, FindingsRegistries.DEFAULTS, meters, () -> now);
        queue.record(finding("refused", "web", "", "bad"));
        queue.record(finding("a", "web", "", "bad"));
        queue.drain();
        assertThat(events("a")).hasSize(1);
        assertThat(dropped("failed")).isEqualTo(1);
    }

    @Test
    void theBackgroundWriterWritesWhatIsQueuedAndStops() throws Exception {
        EventQueue queue =
                new EventQueue(new EventRecorder(cluster.client(), meters), FindingsRegistries.DEFAULTS, meters);
        queue.start();
        assertThat(queue.writing()).isTrue();
        for (int i = 0; i < 20; i++) {
            queue.record(finding("a", "web-" + i, "", "bad"));
        }
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(events("a")).hasSize(20));
        queue.close();
        assertThat(queue.writing()).as("the writer stopped").isFalse();
    }
}
