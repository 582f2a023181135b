package io.topobridge.testing.wrappers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.translate.TranslationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What each wrapper makes is what its kind's controller accepts and the bridge reads as meant: the objects are
 * expanded by render's stand-ins of the real controllers into pods, then translated into gangs.
 */
class WrappersTest {

    private static TranslationResult translate(HasMetadata workload) {
        Expansion.Result expanded = Kinds.expansion().expand(List.of(workload), Expansion.Limits.DEFAULT);
        assertThat(expanded.notes())
                .as("expansion notes other than the generated names' INFO")
                .allMatch(n -> n.severity() == Severity.INFO);
        List<HasMetadata> all = new ArrayList<>();
        all.add(workload);
        all.addAll(expanded.created());
        return TranslationResult.of(Fixtures.translator(), all, Fixtures.TIERS, Fixtures.lookup(all));
    }

    private static List<Pod> pods(HasMetadata workload) {
        return Kinds.expansion().expand(List.of(workload), Expansion.Limits.DEFAULT).created().stream()
                .filter(Pod.class::isInstance)
                .map(Pod.class::cast)
                .toList();
    }

    @Test
    void aDeploymentIsOneGangOfItsReplicasAndItsPodsAskWhatWasSaid() {
        var d = DeploymentWrapper.make("web", "ns").replicas(4).gpus(4).cpu("2").highestTier("nvlink");
        TranslationResult result = translate(d.obj());

        assertThat(result.findings()).isEmpty();
        DesiredPodGroup pg = result.podGroups().get(0);
        assertThat(result.podGroups()).hasSize(1);
        assertThat(pg.spec().getMinMember()).isEqualTo(4);
        assertThat(pg.spec().getMinResources()).containsEntry("nvidia.com/gpu", "16");
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(1);
        assertThat(pods(d.obj())).hasSize(4).allSatisfy(p -> {
            assertThat(p.getSpec().getSchedulerName()).isEqualTo("volcano");
            assertThat(p.getSpec().getContainers().get(0).getResources().getLimits())
                    .as("an extended resource's limit equals its request")
                    .containsKey("nvidia.com/gpu");
        });
    }

    @Test
    void aStatefulSetIsOneGangOfItsReplicas() {
        TranslationResult result = translate(StatefulSetWrapper.make("db", "ns")
                .replicas(3)
                .gpus(1)
                .highestTier("rack")
                .obj());

        assertThat(result.podGroups()).singleElement().satisfies(pg -> {
            assertThat(pg.spec().getMinMember()).isEqualTo(3);
            assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        });
    }

    @Test
    void aLeaderWorkerSetIsOneGangPerGroup() {
        var lws = LeaderWorkerSetWrapper.make("vllm", "ns")
                .replicas(2)
                .size(4)
                .gpus(8)
                .highestTier("nvlink");
        TranslationResult result = translate(lws.obj());

        assertThat(result.podGroups()).hasSize(2).allSatisfy(pg -> {
            assertThat(pg.spec().getMinMember()).isEqualTo(4);
            assertThat(pg.spec().getMinResources()).containsEntry("nvidia.com/gpu", "32");
        });
        assertThat(pods(lws.obj())).hasSize(8);
    }

    @Test
    void aNodeSelectorReachesEveryPodTheControllersMake() {
        var d = DeploymentWrapper.make("web", "ns").replicas(2).gpus(1).nodeSelector("pool", "a");
        var lws = LeaderWorkerSetWrapper.make("vllm", "ns")
                .replicas(1)
                .size(3)
                .gpus(1)
                .nodeSelector("pool", "b");

        assertThat(pods(d.obj()))
                .hasSize(2)
                .allSatisfy(
                        p -> assertThat(p.getSpec().getNodeSelector()).containsExactlyEntriesOf(Map.of("pool", "a")));
        assertThat(pods(lws.obj()))
                .hasSize(3)
                .allSatisfy(
                        p -> assertThat(p.getSpec().getNodeSelector()).containsExactlyEntriesOf(Map.of("pool", "b")));
        assertThat(pods(DeploymentWrapper.make("plain", "ns").replicas(1).obj()))
                .singleElement()
                .satisfies(p -> assertThat(p.getSpec().getNodeSelector()).isNullOrEmpty());
    }

    @Test
    void aLeaderWorkerSetsRestartPolicyIsSetOnlyWhenAsked() {
        GenericKubernetesResource none = LeaderWorkerSetWrapper.make("vllm", "ns")
                .replicas(2)
                .size(2)
                .gpus(1)
                .highestTier("nvlink")
                .restartPolicy("None")
                .obj();
        GenericKubernetesResource byDefault = LeaderWorkerSetWrapper.make("vllm", "ns")
                .replicas(2)
                .size(2)
                .gpus(1)
                .highestTier("nvlink")
                .obj();

        assertThat(template(none)).containsEntry("restartPolicy", "None");
        assertThat(template(byDefault)).doesNotContainKey("restartPolicy");
        // the policy changes who restarts a group, not the gangs
        assertThat(translate(none).podGroups()).hasSize(2);
        assertThat(translate(none).podGroups())
                .extracting(pg -> pg.spec().getMinMember())
                .containsExactlyElementsOf(translate(byDefault).podGroups().stream()
                        .map(pg -> pg.spec().getMinMember())
                        .toList());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> template(GenericKubernetesResource lws) {
        Map<String, Object> spec =
                (Map<String, Object>) lws.getAdditionalProperties().get("spec");
        return (Map<String, Object>) spec.get("leaderWorkerTemplate");
    }

    @Test
    void aStormServiceIsOneGangPerRoleSet() {
        var storm = StormServiceWrapper.make("pd", "ns")
                .replicas(1)
                .role("prefill", 2)
                .role("decode", 2)
                .gpus(1)
                .highestTier("rack");
        TranslationResult result = translate(storm.obj());

        assertThat(result.podGroups()).singleElement().satisfies(pg -> {
            assertThat(pg.spec().getMinMember()).isEqualTo(4);
            assertThat(pg.spec().getMinResources()).containsEntry("nvidia.com/gpu", "4");
        });
        assertThat(pods(storm.obj())).hasSize(4);
    }

    @Test
    void aPodIsOwnedBoundAndAsksWhatWasSaid() {
        Pod pod = PodWrapper.make("web-0", "ns")
                .ownedBy("apps/v1", "ReplicaSet", "web-abc", "u-rs")
                .label("app", "web")
                .gpus(2)
                .runningOn("n1")
                .obj();

        assertThat(pod.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getController()).isTrue());
        assertThat(pod.getSpec().getNodeName()).isEqualTo("n1");
        assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        assertThat(pod.getSpec().getContainers().get(0).getResources().getRequests())
                .containsKey("nvidia.com/gpu");
    }

    @Test
    void everyCallOfObjMakesANewObject() {
        var d = DeploymentWrapper.make("web", "ns").replicas(2);
        var first = d.obj();
        first.getSpec().setReplicas(9);
        first.getMetadata().setAnnotations(new java.util.HashMap<>(java.util.Map.of("x", "y")));

        assertThat(d.obj().getSpec().getReplicas()).isEqualTo(2);
        assertThat(d.obj().getMetadata().getAnnotations()).isNull();
    }
}
