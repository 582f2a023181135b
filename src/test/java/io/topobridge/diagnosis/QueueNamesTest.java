package io.topobridge.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.workload.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The queues the doctor checks: the one a workload names, else its namespace's default, else the global one. */
class QueueNamesTest {

    private static final List<HasMetadata> WORKLOADS = Fixtures.objects(String.join(
            "---\n",
            Fixtures.deployment("team-a", "names-gold", 1, Map.of("topobridge.io/queue", "gold")),
            Fixtures.deployment("team-a", "names-none", 1, Map.of("topobridge.io/highest-tier", "1")),
            Fixtures.deployment("team-b", "names-none", 1, Map.of("topobridge.io/highest-tier", "1")),
            Fixtures.deployment("team-b", "unmanaged", 1, Map.of())));

    @Test
    void aWorkloadNamingNoQueueGetsItsNamespacesDefault() {
        Map<String, List<String>> named =
                QueueNames.named(WORKLOADS, List.of(), "default", Map.of("team-a", "team-a-queue")::get);
        assertThat(named)
                .containsOnlyKeys("gold", "team-a-queue", "default")
                .containsEntry("team-a-queue", List.of("Deployment/team-a/names-none"))
                .containsEntry("default", List.of("Deployment/team-b/names-none"));
    }

    @Test
    void withoutNamespaceDefaultsTheGlobalDefaultIsChecked() {
        Map<String, List<String>> named = QueueNames.named(WORKLOADS, List.of(), "default", ns -> null);
        assertThat(named).containsOnlyKeys("gold", "default");
        assertThat(named.get("default")).hasSize(2);
    }
}
