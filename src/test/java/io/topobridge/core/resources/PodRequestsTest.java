package io.topobridge.core.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.workload.Fixtures;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes' effective-request rule, case by case; each case also through one {@link PodRequests} instance, whose second
 * template of the same quantities reads their amounts from its memo.
 */
class PodRequestsTest {

    private static Map<String, String> requests(String podSpecYaml) {
        Pod pod = Fixtures.pod("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n" + podSpecYaml);
        Map<String, String> direct = PodRequests.of(pod.getSpec()).canonical();
        var memo = new PodRequests();
        Pod twin = Fixtures.pod("apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n" + podSpecYaml);
        assertThat(memo.sum(twin.getSpec()).canonical()).isEqualTo(direct);
        assertThat(memo.sum(pod.getSpec()).canonical()).isEqualTo(direct);
        assertThat(memo.sum(pod.getSpec())).isSameAs(memo.sum(pod.getSpec()));
        assertThat(PodRequests.isBestEffort(pod.getSpec())).isEqualTo(direct.isEmpty());
        return direct;
    }

    @Test
    void sumsContainersAndDefaultsRequestsToLimits() {
        assertThat(requests("""
                  containers:
                  - name: a
                    resources:
                      requests: {cpu: 500m, memory: 1Gi}
                      limits: {cpu: "2", memory: 2Gi, nvidia.com/gpu: "4"}
                  - name: b
                    resources:
                      limits: {cpu: 250m, memory: 512Mi}
                """))
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "750m", "memory", "1536Mi", "nvidia.com/gpu", "4"));
    }

    @Test
    void regularInitContainerCountsOnlyWhenItIsTheLargest() {
        assertThat(requests("""
                  initContainers:
                  - name: fetch
                    resources: {requests: {cpu: "4", memory: 1Gi}}
                  containers:
                  - name: app
                    resources: {requests: {cpu: "1", memory: 8Gi}}
                """)).containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "4", "memory", "8Gi"));
    }

    @Test
    void sidecarsAddToTheAppAndToLaterInitContainers() {
        // sidecar 1 cpu runs next to the app (2 cpu): 3; the later init container needs 3 + 1 = 4 while it runs
        assertThat(requests("""
                  initContainers:
                  - name: proxy
                    restartPolicy: Always
                    resources: {requests: {cpu: "1"}}
                  - name: warmup
                    resources: {requests: {cpu: "3"}}
                  containers:
                  - name: app
                    resources: {requests: {cpu: "2"}}
                """)).containsEntry("cpu", "4");
        // an init container that runs before the sidecar does not see it
        assertThat(requests("""
                  initContainers:
                  - name: warmup
                    resources: {requests: {cpu: "3"}}
                  - name: proxy
                    restartPolicy: Always
                    resources: {requests: {cpu: "1"}}
                  containers:
                  - name: app
                    resources: {requests: {cpu: "2"}}
                """)).containsEntry("cpu", "3");
    }

    @Test
    void podLevelResourcesReplaceTheContainerSumAndOverheadIsAdded() {
        assertThat(requests("""
                  resources:
                    limits: {cpu: "8", memory: 32Gi}
                    requests: {cpu: "6"}
                  overhead: {cpu: 250m, memory: 120Mi}
                  containers:
                  - name: app
                    resources: {requests: {cpu: "2", memory: 4Gi, nvidia.com/gpu: "1"}}
                """))
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "6250m", "memory", "32888Mi", "nvidia.com/gpu", "1"));
    }

    @Test
    void noResourcesIsEmpty() {
        assertThat(requests("  containers:\n  - name: app\n")).isEmpty();
    }

    @Test
    void unparsableQuantityNamesContainerAndResource() {
        Pod pod = Fixtures.pod("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  containers:
                  - name: app
                    resources: {requests: {cpu: "two"}}
                """);
        assertThatThrownBy(() -> PodRequests.of(pod.getSpec()))
                .hasMessageContaining("container app")
                .hasMessageContaining("cpu: quantity \"two\" is not a Kubernetes quantity");
        // a memo refuses it each time it is asked, with the same message
        var memo = new PodRequests();
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> memo.sum(pod.getSpec()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            catchThrowable(() -> PodRequests.of(pod.getSpec())).getMessage());
        }
    }
}
