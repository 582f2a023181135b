package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.testing.wrappers.LeaderWorkerSetWrapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A hostile value in any field a workload finding quotes — a 1 MiB annotation, a newline that would forge the
 * next log line, an ANSI escape, a bidi override, a garbage field — gives findings of at most 1 KiB on one
 * line, in the reconciler and in admission alike, with the value quoted, escaped and its length told.
 */
class BoundedMessagesTest {

    private static final String MIB = "a".repeat(1 << 20);
    private static final String FORGED = "2\nREJECTED Deployment/ns/other InvalidAnnotation: forged";

    private static Deployment deployment(Consumer<Deployment> change) {
        Deployment d = (Deployment) Fixtures.object(WorkloadTranslatorTest.deployment("ns", "d", 2, Map.of()));
        d.getMetadata().setAnnotations(new HashMap<>(Map.of("topobridge.io/queue", "q")));
        change.accept(d);
        return d;
    }

    private static Consumer<Deployment> annotation(String key, String value) {
        return d -> d.getMetadata().getAnnotations().put(key, value);
    }

    private static Consumer<Deployment> templateAnnotation(String key, String value) {
        return d -> d.getSpec().getTemplate().getMetadata().setAnnotations(Map.of(key, value));
    }

    static Stream<Arguments> hostile() {
        return Stream.of(
                Arguments.of(
                        "1 MiB highest tier",
                        deployment(annotation("topobridge.io/highest-tier", MIB)),
                        WorkloadReason.INVALID_ANNOTATION,
                        "topobridge.io/highest-tier=\"" + "a".repeat(100) + "\u2026\" (1048576 chars)"),
                Arguments.of(
                        "newline forging a finding line",
                        deployment(annotation("topobridge.io/highest-tier", FORGED)),
                        WorkloadReason.INVALID_ANNOTATION,
                        "=\"2\\nREJECTED Deployment/ns/other InvalidAnnotation: forged\""),
                Arguments.of(
                        "ANSI escape in a pod template annotation",
                        deployment(templateAnnotation("topobridge.io/mode", "\u001b[2Jhard")),
                        WorkloadReason.INVALID_ANNOTATION,
                        "topobridge.io/mode=\"\\u001b[2Jhard\" (pod template)"),
                Arguments.of(
                        "bidi override in min-member",
                        deployment(annotation("topobridge.io/min-member", "\u202e5")),
                        WorkloadReason.INVALID_ANNOTATION,
                        "topobridge.io/min-member=\"\\u202e5\""),
                Arguments.of(
                        "line separator in a group",
                        deployment(annotation("topobridge.io/group", "g\u2028x")),
                        WorkloadReason.INVALID_ANNOTATION,
                        "topobridge.io/group=\"g\\u2028x\""),
                Arguments.of(
                        "1 MiB queue",
                        deployment(annotation("topobridge.io/queue", MIB)),
                        WorkloadReason.INVALID_ANNOTATION,
                        "(1048576 chars)"),
                Arguments.of(
                        "1 MiB value of an unknown key",
                        deployment(annotation("topobridge.io/highest_tier", MIB)),
                        WorkloadReason.UNKNOWN_ANNOTATION,
                        "topobridge.io/highest_tier=\"aaaa"),
                Arguments.of(
                        "unknown key that forges a line",
                        deployment(annotation("topobridge.io/x\nINFO forged", "1")),
                        WorkloadReason.UNKNOWN_ANNOTATION,
                        "topobridge.io/x\\nINFO forged=\"1\""),
                Arguments.of(
                        "1 MiB string for LeaderWorkerSet replicas",
                        leaderWorkerSet(MIB + "\n"),
                        WorkloadReason.UNREADABLE_WORKLOAD,
                        "spec.replicas"));
    }

    private static HasMetadata leaderWorkerSet(Object replicas) {
        return LeaderWorkerSetWrapper.make("lws", "ns")
                .uid("u1")
                .highestTier("2")
                .size(2)
                .replicas(replicas)
                .obj();
    }

    @Test
    void anUnparsableQuantityIsQuotedBoundedInTheError() {
        Deployment d = deployment(d1 -> d1.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getResources()
                .getRequests()
                .put("cpu", new Quantity(MIB + "\n")));
        assertThatThrownBy(() -> PodRequests.of(d.getSpec().getTemplate().getSpec()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("container c: resource cpu: quantity \"" + "a".repeat(100)
                        + "\u2026\" (1048577 chars) is longer than 64 characters");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    void findingsAreBoundedAndOnOneLine(String name, HasMetadata workload, WorkloadReason reason, String fragment) {
        List<Finding> reconciler = TranslationResult.of(
                        Fixtures.translator(), List.of(workload), Fixtures.TIERS, Fixtures.lookup(List.of(workload)))
                .findings();
        List<Finding> admission = Fixtures.translator().validate(workload, Fixtures.TIERS, Fixtures.lookup(List.of()));
        List<Finding> all = new ArrayList<>(reconciler);
        all.addAll(admission);
        assertThat(reconciler).as("reconciler").anyMatch(f -> f.reason() == reason);
        assertThat(admission).as("admission").anyMatch(f -> f.reason() == reason);
        for (Finding f : all) {
            assertThat(f.message().getBytes(StandardCharsets.UTF_8).length)
                    .as(f.message())
                    .isLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES);
            assertThat(f.line().getBytes(StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES);
            assertThat(f.line()).as("one line").doesNotContain("\n", "\r", "\u001b", "\u2028", "\u202e", "\u0085");
        }
        assertThat(all)
                .filteredOn(f -> f.reason() == reason)
                .extracting(Finding::message)
                .anySatisfy(m -> assertThat(m).contains(fragment));
    }
}
