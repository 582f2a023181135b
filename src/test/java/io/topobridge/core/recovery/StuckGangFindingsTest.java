package io.topobridge.core.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Severity;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StuckGangFindingsTest {

    static final ObjectRef DEPLOYMENT = new ObjectRef("apps/v1", "Deployment", "ns", "web", "u1");
    static final Instant SINCE = Instant.parse("2026-12-03T08:00:30Z");

    static GangDomain domain(GangDomain.Verdict verdict) {
        return new GangDomain(
                verdict, "p1", 1, "nvlink", List.of("g-4"), List.of(), List.of("n4 (cordoned)"), SINCE, "the sentence");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("not judged", Optional.empty(), null),
                Arguments.of("holds", Optional.of(domain(GangDomain.Verdict.HOLDS)), null),
                Arguments.of("room: Volcano's turn", Optional.of(domain(GangDomain.Verdict.ROOM)), null),
                Arguments.of(
                        "no room in the domain",
                        Optional.of(domain(GangDomain.Verdict.NO_ROOM_IN_DOMAIN)),
                        RecoveryReason.NO_ROOM_IN_DOMAIN),
                Arguments.of(
                        "domain lost", Optional.of(domain(GangDomain.Verdict.DOMAIN_LOST)), RecoveryReason.DOMAIN_LOST),
                Arguments.of(
                        "replacement blocked by a pod Terminating on a node down",
                        Optional.of(domain(GangDomain.Verdict.REPLACEMENT_BLOCKED)),
                        RecoveryReason.REPLACEMENT_BLOCKED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void saysWhatTheDomainCannotGiveBack(String name, Optional<GangDomain> domain, RecoveryReason expected) {
        List<Finding> found = DomainLossRestarts.stuck("ns", "web-pg", List.of(DEPLOYMENT), domain);
        if (expected == null) {
            assertThat(found).isEmpty();
            return;
        }
        assertThat(found).hasSize(2).allSatisfy(f -> {
            assertThat(f.reason()).isEqualTo(expected);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
        });
        assertThat(found.get(0).object()).isEqualTo(DEPLOYMENT);
        assertThat(found.get(0).key()).isEqualTo("web-pg");
        assertThat(found.get(0).message()).isEqualTo("Deployment/ns/web: gang web-pg: the sentence");
        assertThat(found.get(1).object().kind()).isEqualTo("PodGroup");
        assertThat(found.get(1).object().name()).isEqualTo("web-pg");
        assertThat(found.get(1).message()).isEqualTo("PodGroup/ns/web-pg: the sentence");
    }
}
