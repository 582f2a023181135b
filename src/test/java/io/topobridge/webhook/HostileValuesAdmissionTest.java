package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.restassured.response.Response;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.PodAssignment;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.testing.LogLines;
import io.topobridge.testing.PendingPod;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile values reach admission answers and admission logs bounded and on one line: a 1 MiB annotation value
 * carrying a newline, ANSI escapes and bidi overrides in annotations, labels and the scheduler name. The
 * validating webhook runs the real translator, the pod webhook the real admission over a scripted assignment.
 */
class HostileValuesAdmissionTest {

    private static final String FORGE = "\nREJECTED Deployment/ml/other InvalidAnnotation: forged";
    private static final List<String> LOGGERS =
            List.of(WorkloadValidator.class.getName(), PodMutator.class.getName(), WebhookServer.class.getName());
    private static final LogLines CAPTURE = new LogLines(Level.ALL);
    private static final List<String> LOGGED = CAPTURE.lines();
    private static WebhookFixture fixture;

    @BeforeAll
    static void start() {
        var translator = Fixtures.translator(Fixtures.defaultSettings());
        // every pod belongs to PodGroup pg and should carry topobridge.io/member=decode
        var admission = new PodAdmission(
                new AdmissionSettings("volcano"),
                (pod, tiers, lookup) -> new WorkloadTranslator.Tie(
                        new PodAssignment("pg", "decode", Map.of("topobridge.io/member", "decode")), null, List.of()));
        fixture = new WebhookFixture(List.of(
                new WorkloadValidator(
                        translator::validate,
                        new AdmissionWebhook.Context(
                                () -> Fixtures.TIERS, new InMemoryLookup(List.of()), Reviews.SERIALIZATION, Set.of())),
                new PodMutator(
                        admission,
                        new AdmissionWebhook.Context(
                                () -> Fixtures.TIERS,
                                new InMemoryLookup(List.of()),
                                Reviews.SERIALIZATION,
                                Set.of()))));
        LOGGERS.forEach(name -> Logger.getLogger(name).addHandler(CAPTURE));
    }

    @AfterAll
    static void stop() {
        LOGGERS.forEach(name -> Logger.getLogger(name).removeHandler(CAPTURE));
        fixture.close();
    }

    private static void assertOneLine(String text) {
        assertThat(text).as(text).doesNotContain("\n", "\r", "\u001b", "\u2028", "\u2029", "\u202e", "\u0085");
    }

    @Test
    void aDenialAndItsWarningsAreBoundedAndOnOneLine() {
        Deployment hostile = Reviews.decodeDeployment(null);
        Map<String, String> annotations = new HashMap<>();
        // the API server keeps all annotations of an object within 256 KiB, and the webhook port refuses longer strings
        annotations.put("topobridge.io/highest-tier", "2" + FORGE + "a".repeat(200_000));
        annotations.put("topobridge.io/mode", "hard\u202e");
        annotations.put("topobridge.io/colour", "\u001b[2Jred\u2028");
        hostile.getMetadata().setAnnotations(annotations);
        ObjectNode review = Reviews.deployment("CREATE", "ml", Reviews.toJson(hostile), null);

        Response response = fixture.request()
                .body(review.toString())
                .post(WorkloadValidator.PATH)
                .then()
                .statusCode(200)
                .body("response.allowed", equalTo(false))
                .extract()
                .response();

        String denial = response.path("response.status.message");
        assertOneLine(denial);
        assertThat(denial.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(4 * UserText.MAX_MESSAGE_BYTES);
        assertThat(denial)
                .contains("topobridge.io/highest-tier=\"2\\nREJECTED Deployment/ml/other InvalidAnnotation: forged")
                .contains("(200056 chars)")
                .contains("topobridge.io/mode=\"hard\\u202e\"");
        List<String> warnings = response.path("response.warnings");
        assertThat(warnings).singleElement().satisfies(w -> {
            assertOneLine(w);
            assertThat(w).contains("topobridge.io/colour=\"\\u001b[2Jred\\u2028\"");
        });
        assertThat(LOGGED)
                .as("the denial is logged")
                .anyMatch(l -> l.contains("InvalidAnnotation"))
                .allSatisfy(HostileValuesAdmissionTest::assertOneLine)
                .allSatisfy(l -> assertThat(l.getBytes(StandardCharsets.UTF_8).length)
                        .isLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES));
    }

    @Test
    void podWarningsAndLogLinesAreOnOneLine() {
        var pod = PendingPod.generated("decode-\n\u001b[31m-")
                .label("topobridge.io/member", "prefill\r\nWARNING forged")
                .scheduler("kai\u2029x")
                .build();
        Response response = fixture.request()
                .body(Reviews.podCreate("ml", pod).toString())
                .post(PodMutator.PATH)
                .then()
                .statusCode(200)
                .body("response.allowed", equalTo(true))
                .extract()
                .response();
        List<String> warnings = response.path("response.warnings");
        assertThat(warnings).hasSize(2).allSatisfy(HostileValuesAdmissionTest::assertOneLine);
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("pod names scheduler \"kai\\u2029x\""));
        assertThat(warnings)
                .anySatisfy(w -> assertThat(w).contains("topobridge.io/member=\"prefill\\r\\nWARNING forged\""));
        assertThat(LOGGED)
                .anyMatch(l -> l.contains("Pod/ml/decode-\\n\\u001b[31m-* ForeignScheduler"))
                .allSatisfy(HostileValuesAdmissionTest::assertOneLine);
    }
}
