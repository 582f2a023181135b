package io.topobridge.findings;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Reason;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Events are recorded once per finding identity (object, reason, key) until forgotten: a changed message counts
 * the same Event up; messages stay within Kubernetes' 1 KiB; names are valid for any object.
 */
class EventRecorderTest {

    enum Reasons implements Reason {
        MISSING_TIER_LABELS
    }

    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private MockCluster cluster;
    private EventRecorder recorder;

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start();
        recorder = new EventRecorder(cluster.client(), new SimpleMeterRegistry());
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void oneEventPerTransition() {
        ObjectRef node = ObjectRef.node("gpu-001");
        Finding lacksLeaf = Finding.warning(Reasons.MISSING_TIER_LABELS, node, "lacks leaf");
        assertThat(recorder.write(lacksLeaf)).isEmpty();
        assertThat(RecordingDispatcher.of(cluster).writes("/events"))
                .as("written")
                .hasSize(1);
        assertThat(recorder.write(lacksLeaf)).isEmpty();
        assertThat(RecordingDispatcher.of(cluster).writes("/events"))
                .as("unchanged")
                .hasSize(1);
        Event event = cluster.client()
                .v1()
                .events()
                .inNamespace("default")
                .list()
                .getItems()
                .get(0);
        assertThat(event.getReason()).isEqualTo("MissingTierLabels");
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("Node");
        assertThat(event.getInvolvedObject().getName()).isEqualTo("gpu-001");

        recorder.forget(lacksLeaf.id());
        assertThat(recorder.write(lacksLeaf)).isEmpty();
        assertThat(cluster.client().v1().events().inNamespace("default").list().getItems())
                .singleElement()
                .satisfies(e -> assertThat(e.getCount()).isEqualTo(2));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "UPPER_Case.node",
                "-.leading",
                "x",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-"
            })
    void eventNamesAreValidForAnyObjectName(String name) {
        String eventName = EventRecorder.eventName(ObjectRef.cluster("HyperNode", name), "key");
        assertThat(eventName.length()).isLessThanOrEqualTo(253);
        assertThat(DNS_SUBDOMAIN.matcher(eventName).matches()).as(eventName).isTrue();
    }
}
