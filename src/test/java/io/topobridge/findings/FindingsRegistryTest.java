package io.topobridge.findings;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Reason;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.annotation.AnnotationParser;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.LogLines;
import io.topobridge.testing.RecordingDispatcher;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The registry keeps one finding per identity (object, reason, key): a message that changes (a count) updates
 * its one Event and counts it up, findings told apart by their key stay apart in Events, metrics and the API,
 * each finding is logged once, and a hostile value reaches neither an Event nor a log line unbounded or unescaped.
 */
class FindingsRegistryTest {

    enum Reasons implements Reason {
        SINGLE_DOMAIN_TIER,
        UNKNOWN_ANNOTATION
    }

    static final ObjectRef RACK = new ObjectRef("topology.volcano.sh/v1alpha1", "HyperNode", null, "rack-r1", null);
    static final ObjectRef DEPLOY = new ObjectRef("apps/v1", "Deployment", "llm", "vllm", "u1");

    private MockCluster cluster;
    private SimpleMeterRegistry meters;
    private FindingsRegistry registry;
    private final LogLines capture = new LogLines(Level.INFO);
    private final List<String> logged = capture.lines();

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start();
        meters = new SimpleMeterRegistry();
        registry = FindingsRegistries.writingOnPublish(new EventRecorder(cluster.client(), meters), meters);
        Logger.getLogger(FindingsRegistry.class.getName()).addHandler(capture);
    }

    @AfterEach
    void stop() {
        Logger.getLogger(FindingsRegistry.class.getName()).removeHandler(capture);
        cluster.close();
    }

    private double gauge(String source, String reason, String severity) {
        var gauge = meters.find("topobridge.findings")
                .tags("source", source, "reason", reason, "severity", severity)
                .gauge();
        return gauge == null ? 0 : gauge.value();
    }

    private List<Event> events(String namespace) {
        return cluster.client().v1().events().inNamespace(namespace).list().getItems();
    }

    private static Finding rack(int nodes) {
        return Finding.info(
                Reasons.SINGLE_DOMAIN_TIER,
                RACK,
                "tier 1 (rack) has a single domain, rack \"r1\" with " + nodes + " nodes");
    }

    @Test
    void aFindingWhoseCountChangesKeepsOneEventThatCountsUp() {
        for (int nodes = 17; nodes <= 19; nodes++) {
            registry.publish("topology", List.of(rack(nodes)));
        }
        assertThat(events("default")).singleElement().satisfies(e -> {
            assertThat(e.getReason()).isEqualTo("SingleDomainTier");
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getCount()).isEqualTo(3);
            assertThat(e.getMessage()).endsWith("with 19 nodes");
        });
        assertThat(registry.of("topology")).singleElement().isEqualTo(rack(19));
        assertThat(gauge("topology", "SingleDomainTier", "info")).isEqualTo(1);
        assertThat(logged)
                .as("logged once, when it appeared")
                .singleElement()
                .satisfies(line -> assertThat(line).endsWith("with 17 nodes"));

        // unchanged: nothing is written
        RecordingDispatcher.of(cluster).clearLog();
        registry.publish("topology", List.of(rack(19)));
        assertThat(RecordingDispatcher.of(cluster).writes("/events")).isEmpty();
    }

    @Test
    void findingsOfOneReasonOnOneObjectWithDifferentKeysStayTwo() {
        Finding a = Finding.warning(Reasons.UNKNOWN_ANNOTATION, DEPLOY, "unknown annotation is ignored")
                .withKey("topobridge.io/a");
        Finding b = Finding.warning(Reasons.UNKNOWN_ANNOTATION, DEPLOY, "unknown annotation is ignored")
                .withKey("topobridge.io/b");
        registry.publish("workloads", List.of(a, b));
        assertThat(registry.of("workloads")).containsExactly(a, b);
        assertThat(events("llm")).hasSize(2).allSatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("UnknownAnnotation");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("vllm");
            assertThat(e.getCount()).isEqualTo(1);
        });
        assertThat(gauge("workloads", "UnknownAnnotation", "warning")).isEqualTo(2);
        assertThat(logged).hasSize(2);

        registry.publish("workloads", List.of(a));
        assertThat(registry.of("workloads")).containsExactly(a);
        assertThat(gauge("workloads", "UnknownAnnotation", "warning")).isEqualTo(1);
        assertThat(logged).last().asString().startsWith("resolved: WARNING Deployment/llm/vllm UnknownAnnotation");
    }

    @Test
    void aHostileValueGivesOneBoundedLineInTheEventAndTheLog() {
        String value =
                "2\nWARNING Deployment/llm/other InvalidAnnotation: forged \u001b[31m\u202e" + "a".repeat(1 << 20);
        var sources = List.of(AnnotationSource.of(
                DEPLOY, "metadata", Map.of("topobridge.io/highest-tier", value, "topobridge.io/queue", "q")));
        registry.publish(
                "workloads",
                AnnotationParser.parse(sources, TierCatalog.of(List.of(new TierCatalog.Tier(1, "rack")), List.of()))
                        .findings());
        assertThat(events("llm")).singleElement().satisfies(e -> {
            assertThat(e.getMessage().getBytes(StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES);
            assertThat(e.getMessage())
                    .doesNotContain("\n", "\u001b", "\u202e")
                    .contains("topobridge.io/highest-tier=\"2\\nWARNING Deployment/llm/other InvalidAnnotation: forged "
                            + "\\u001b[31m\\u202e")
                    .contains("(" + value.length() + " chars)");
        });
        assertThat(logged).singleElement().satisfies(line -> {
            assertThat(line)
                    .startsWith("REJECTED Deployment/llm/vllm InvalidAnnotation: ")
                    .doesNotContain("\n", "\u001b");
            assertThat(line.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES);
        });
    }

    @Test
    void aFindingThatComesBackCountsItsEventUp() {
        registry.publish("topology", List.of(rack(2)));
        registry.publish("topology", List.of());
        registry.publish("topology", List.of(rack(2)));
        assertThat(events("default"))
                .singleElement()
                .satisfies(e -> assertThat(e.getCount()).isEqualTo(2));
    }
}
