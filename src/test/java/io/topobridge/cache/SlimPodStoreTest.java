package io.topobridge.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.topobridge.core.workload.NativeGang;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the pod cache keeps of a pod: its tolerations, one list for every pod that carries the same ones, and a
 * Kubernetes gang it is in (its gang's reconcile reads it).
 */
class SlimPodStoreTest {

    static Pod pod(String name, long seconds) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .withNodeName("n1")
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .addToRequests("nvidia.com/gpu", new Quantity("4"))
                .endResources()
                .endContainer()
                .withTolerations(
                        new TolerationBuilder()
                                .withKey("node.kubernetes.io/not-ready")
                                .withOperator("Exists")
                                .withEffect("NoExecute")
                                .withTolerationSeconds(seconds)
                                .build(),
                        new TolerationBuilder()
                                .withKey("maintenance")
                                .withOperator("Equal")
                                .withValue("true")
                                .withEffect("NoSchedule")
                                .build())
                .endSpec()
                .build();
    }

    @Test
    void tolerationsAreKeptAndShared() {
        SlimPodStore store = new SlimPodStore();
        store.put("ns/a", pod("a", 300));
        store.put("ns/b", pod("b", 60));
        Pod a = store.get("ns/a");
        Pod b = store.get("ns/b");
        assertThat(a.getSpec().getTolerations()).hasSize(2);
        assertThat(a.getSpec().getTolerations())
                .as("tolerationSeconds is not kept, so both pods share one list")
                .isSameAs(b.getSpec().getTolerations());
        var core = CoreViews.podView(a).tolerations();
        assertThat(core)
                .containsExactly(
                        new io.topobridge.core.node.Toleration(
                                "node.kubernetes.io/not-ready", "Exists", null, "NoExecute"),
                        new io.topobridge.core.node.Toleration("maintenance", "Equal", "true", "NoSchedule"));
        assertThat(CoreViews.podView(a).effectiveTolerations())
                .as("requesting a GPU adds what ExtendedResourceToleration adds")
                .contains(io.topobridge.core.node.Toleration.forExtendedResource("nvidia.com/gpu"));
        assertThat(CoreViews.podView(b).tolerations()).isSameAs(core);
    }

    @Test
    void aPodWithoutTolerationsKeepsNone() {
        Pod bare = pod("c", 1);
        bare.getSpec().setTolerations(List.of());
        SlimPodStore store = new SlimPodStore();
        store.put("ns/c", bare);
        assertThat(CoreViews.podView(store.get("ns/c")).tolerations()).isEmpty();
    }

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
