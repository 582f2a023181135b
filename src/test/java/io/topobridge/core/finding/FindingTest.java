package io.topobridge.core.finding;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A finding's identity is (object, reason, key), never its text; its message and line are one bounded line. */
class FindingTest {

    enum Reasons implements Reason {
        SINGLE_DOMAIN_TIER,
        UNKNOWN_ANNOTATION
    }

    private static final ObjectRef RACK = ObjectRef.cluster("HyperNode", "rack-r1");
    private static final ObjectRef DEPLOY = new ObjectRef("apps/v1", "Deployment", "llm", "vllm", "u1");

    @Test
    void aChangedMessageIsTheSameFinding() {
        Finding seventeen = Finding.info(Reasons.SINGLE_DOMAIN_TIER, RACK, "rack \"r1\" with 17 nodes");
        Finding eighteen = Finding.info(Reasons.SINGLE_DOMAIN_TIER, RACK, "rack \"r1\" with 18 nodes");
        assertThat(seventeen).isNotEqualTo(eighteen);
        assertThat(seventeen.id()).isEqualTo(eighteen.id());
        assertThat(seventeen.key()).as("the factories default the key").isEmpty();
    }

    @Test
    void keysTellApartFindingsOfOneReasonOnOneObject() {
        Finding a = Finding.warning(Reasons.UNKNOWN_ANNOTATION, DEPLOY, "unknown annotation")
                .withKey("topobridge.io/a");
        Finding b = Finding.warning(Reasons.UNKNOWN_ANNOTATION, DEPLOY, "unknown annotation")
                .withKey("topobridge.io/b");
        assertThat(a.id()).isNotEqualTo(b.id());
        assertThat(a.withKey("topobridge.io/b")).isEqualTo(b);
        assertThat(a.id())
                .isNotEqualTo(Finding.warning(Reasons.SINGLE_DOMAIN_TIER, DEPLOY, "x")
                        .withKey("topobridge.io/a")
                        .id());
        assertThat(a.id())
                .isNotEqualTo(Finding.warning(
                                Reasons.UNKNOWN_ANNOTATION,
                                new ObjectRef("apps/v1", "Deployment", "llm", "decode", "u2"),
                                "x")
                        .withKey("topobridge.io/a")
                        .id());
    }

    @Test
    void messageAndLineAreOneLineOfAtMostOneKibibyte() {
        Finding huge =
                Finding.rejected(Reasons.UNKNOWN_ANNOTATION, DEPLOY, "first\nREJECTED forged " + "x".repeat(1 << 20));
        assertThat(huge.message())
                .startsWith("first\\nREJECTED forged xxx")
                .doesNotContain("\n")
                .endsWith("\u2026");
        assertThat(huge.message().getBytes(StandardCharsets.UTF_8))
                .hasSizeLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES);
        assertThat(huge.line())
                .startsWith("REJECTED Deployment/llm/vllm UnknownAnnotation: first\\n")
                .doesNotContain("\n");
        assertThat(huge.line().getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES);
    }

    @Test
    void anObjectNameNoClusterCouldHoldCannotForgeALine() {
        Finding forged = Finding.warning(
                Reasons.SINGLE_DOMAIN_TIER, ObjectRef.node("n1 SingleDomainTier: ok\nWARNING Node/n2"), "message");
        assertThat(forged.line())
                .isEqualTo("WARNING Node/n1 SingleDomainTier: ok\\nWARNING Node/n2 SingleDomainTier: message");
    }
}
