package io.topobridge.controller.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.Queue;
import io.topobridge.volcano.model.PodGroupSpec;
import io.topobridge.volcano.model.PodGroupStatus;
import io.topobridge.volcano.model.QueueStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Status churn is not a reason to recompute; spec, labels, annotations, owners and our fields are. */
class CacheChangesTest {

    private static WorkloadCaches.Change change(String kind, HasMetadata before, HasMetadata after) {
        return new WorkloadCaches.Change(kind, before, after);
    }

    private static Deployment deployment(int replicas, int ready, Map<String, String> annotations) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName("d")
                .withNamespace("n")
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .endSpec()
                .withNewStatus()
                .withReadyReplicas(ready)
                .endStatus()
                .build();
    }

    @Test
    void deploymentStatusOnlyDoesNotMatter() {
        assertThat(CacheChanges.matters(change("Deployment", deployment(2, 0, Map.of()), deployment(2, 1, Map.of()))))
                .isFalse();
        assertThat(CacheChanges.matters(change("Deployment", deployment(2, 0, Map.of()), deployment(3, 0, Map.of()))))
                .isTrue();
        assertThat(CacheChanges.matters(change(
                        "Deployment",
                        deployment(2, 0, Map.of()),
                        deployment(2, 0, Map.of("topobridge.io/mode", "soft")))))
                .isTrue();
        assertThat(CacheChanges.matters(change("Deployment", null, deployment(2, 0, Map.of()))))
                .isTrue();
    }

    private static PodGroup podGroup(String phase, String manager, String time) {
        var pg = new PodGroup();
        pg.setMetadata(new ObjectMetaBuilder()
                .withName("p")
                .withNamespace("n")
                .withManagedFields(new ManagedFieldsEntryBuilder()
                        .withManager(manager)
                        .withOperation("Update")
                        .withTime(time)
                        .build())
                .build());
        pg.setSpec(new PodGroupSpec().minMember(2));
        pg.setStatus(new PodGroupStatus().phase(PodGroupStatus.PhaseEnum.fromValue(phase)));
        return pg;
    }

    @Test
    void volcanoStatusWritesOnPodGroupsDoNotMatter() {
        assertThat(CacheChanges.matters(
                        change("PodGroup", podGroup("Pending", "volcano", "t1"), podGroup("Running", "volcano", "t2"))))
                .isFalse();
        assertThat(CacheChanges.matters(change(
                        "PodGroup", podGroup("Pending", "volcano", "t1"), podGroup("Pending", "topobridge", "t2"))))
                .as("what the bridge owns changed")
                .isTrue();
    }

    @Test
    void queuesMatterOnlyWhenTheirStateChanges() {
        var open = new Queue();
        open.setMetadata(new ObjectMetaBuilder().withName("q").build());
        open.setStatus(new QueueStatus().state("Open"));
        var busier = new Queue();
        busier.setMetadata(new ObjectMetaBuilder()
                .withName("q")
                .withLabels(Map.of("x", "y"))
                .build());
        busier.setStatus(new QueueStatus().state("Open"));
        var closed = new Queue();
        closed.setMetadata(new ObjectMetaBuilder().withName("q").build());
        closed.setStatus(new QueueStatus().state("Closed"));
        assertThat(CacheChanges.matters(change("Queue", open, busier))).isFalse();
        assertThat(CacheChanges.matters(change("Queue", open, closed))).isTrue();
        assertThat(List.of(CacheChanges.matters(change("Queue", open, null)))).containsExactly(true);
    }

    private static io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler hpa(int max, int current) {
        return new io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder()
                .withNewMetadata()
                .withName("h")
                .withNamespace("n")
                .endMetadata()
                .withNewSpec()
                .withNewScaleTargetRef()
                .withApiVersion("apps/v1")
                .withKind("Deployment")
                .withName("d")
                .endScaleTargetRef()
                .withMaxReplicas(max)
                .endSpec()
                .withNewStatus()
                .withCurrentReplicas(current)
                .withDesiredReplicas(current)
                .endStatus()
                .build();
    }

    @Test
    void anAutoscalersStatusDoesNotMatterItsBoundsDo() {
        assertThat(CacheChanges.matters(change("HorizontalPodAutoscaler", hpa(6, 1), hpa(6, 2))))
                .as("its every sync writes the status")
                .isFalse();
        assertThat(CacheChanges.matters(change("HorizontalPodAutoscaler", hpa(6, 1), hpa(8, 1))))
                .isTrue();
        assertThat(CacheChanges.matters(change("HorizontalPodAutoscaler", null, hpa(6, 1))))
                .isTrue();
    }
}
