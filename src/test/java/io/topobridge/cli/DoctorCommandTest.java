package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topobridge.core.diagnosis.DoctorCheck;
import io.topobridge.core.diagnosis.DoctorReason;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code doctor -o json}: the worst status, and each check with its status, message and the findings behind it. */
class DoctorCommandTest {

    @Test
    void jsonCarriesEachCheckWithItsFindings() throws Exception {
        DoctorReason reason = DoctorReason.values()[0];
        var checks = List.of(
                new DoctorCheck("volcano-crds", DoctorCheck.Status.OK, "fine", List.of()),
                new DoctorCheck(
                        "queues",
                        DoctorCheck.Status.WARNING,
                        "queue gpu is Closed",
                        List.of(Finding.warning(reason, ObjectRef.cluster("Queue", "gpu"), "queue gpu is Closed"))));
        JsonNode doc = new ObjectMapper().readTree(OutputFormat.json(DoctorCommand.document(checks)));
        assertThat(doc.path("status").asText()).isEqualTo("warning");
        assertThat(doc.path("checks")).hasSize(2);
        JsonNode queues = doc.path("checks").get(1);
        assertThat(queues.path("name").asText()).isEqualTo("queues");
        assertThat(queues.path("status").asText()).isEqualTo("warning");
        JsonNode finding = queues.path("findings").get(0);
        assertThat(finding.path("severity").asText()).isEqualTo("WARNING");
        assertThat(finding.path("reason").asText()).isEqualTo(reason.reason());
        assertThat(finding.path("kind").asText()).isEqualTo("Queue");
        assertThat(finding.path("name").asText()).isEqualTo("gpu");
        assertThat(finding.path("message").asText()).isEqualTo("queue gpu is Closed");
    }

    @Test
    void helpNamesEveryCheckOfTheCatalog() {
        String help =
                new picocli.CommandLine(DoctorCommand.class).getUsageMessage().replaceAll("\\s+", " ");
        assertThat(io.topobridge.core.diagnosis.Doctor.CHECKS)
                .isNotEmpty()
                .allSatisfy(check -> assertThat(help).contains(check.name()));
    }
}
