package io.topobridge.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.topobridge.core.workload.NativeGang;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the pod cache keeps of a pod: a Kubernetes gang it is in survives the slimming (its gang's reconcile reads it). */
class SlimPodStoreTest {

    @Test
    void aKubernetesGangThePodIsInIsKept() {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("decode-a")
                .withNamespace("llm")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("x")
                .withEnv(new io.fabric8.kubernetes.api.model.EnvVar("A", "b", null))
                .endContainer()
                .addToAdditionalProperties("schedulingGroup", Map.of("podGroupName", "decode-0"))
                .addToAdditionalProperties("someFutureField", Map.of("x", "y"))
                .endSpec()
                .build();
        Pod slim = SlimPodStore.slim(pod);
        assertThat(NativeGang.of(slim)).contains(new NativeGang("schedulingGroup", "PodGroup \"decode-0\""));
        assertThat(slim.getSpec().getAdditionalProperties()).containsOnlyKeys("schedulingGroup");
        assertThat(slim.getSpec().getContainers().get(0).getEnv()).isEmpty();
        assertThat(NativeGang.of(SlimPodStore.slim(new PodBuilder(pod)
                        .editSpec()
                        .withAdditionalProperties(null)
                        .endSpec()
                        .build())))
                .isEmpty();
    }
}
