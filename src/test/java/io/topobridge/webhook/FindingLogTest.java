package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Reason;
import io.topobridge.testing.LogLines;
import java.util.List;
import java.util.logging.Level;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Admission logs each finding identity once, whatever its message, and every line it logs is one line. */
class FindingLogTest {

    enum Reasons implements Reason {
        FOREIGN_SCHEDULER,
        SUBGROUP_LABEL_CONFLICT
    }

    private static final String LOGGER = FindingLogTest.class.getName();
    private static final ObjectRef POD = new ObjectRef("v1", "Pod", "llm", "vllm-7d9f-*", null);

    private final LogLines capture = new LogLines(Level.ALL);
    private final List<String> lines = capture.lines();
    private final FindingLog log = new FindingLog(Logger.getLogger(LOGGER));

    @BeforeEach
    void capture() {
        java.util.logging.Logger.getLogger(LOGGER).addHandler(capture);
    }

    @AfterEach
    void release() {
        java.util.logging.Logger.getLogger(LOGGER).removeHandler(capture);
    }

    @Test
    void oneLinePerIdentity() {
        log.log(Finding.warning(Reasons.FOREIGN_SCHEDULER, POD, "pod names scheduler \"kai\""));
        log.log(Finding.warning(Reasons.FOREIGN_SCHEDULER, POD, "pod names scheduler \"kai-2\""));
        log.log(Finding.warning(Reasons.SUBGROUP_LABEL_CONFLICT, POD, "label a").withKey("a"));
        log.log(Finding.warning(Reasons.SUBGROUP_LABEL_CONFLICT, POD, "label b").withKey("b"));
        log.log(Finding.warning(Reasons.SUBGROUP_LABEL_CONFLICT, POD, "label b again")
                .withKey("b"));
        assertThat(lines)
                .containsExactly(
                        "WARNING Pod/llm/vllm-7d9f-* ForeignScheduler: pod names scheduler \"kai\"",
                        "WARNING Pod/llm/vllm-7d9f-* SubgroupLabelConflict: label a",
                        "WARNING Pod/llm/vllm-7d9f-* SubgroupLabelConflict: label b");
    }
}
