package io.topobridge.core.workload.changes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.changes.UntiedPods.PodTie;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.core.workload.translate.WorkloadTranslator.PodGang;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Pods of a gang that do not name its PodGroup: found from their owner, reported with a bounded list, gone when they are. */
class UntiedPodsTest {

    private static final GangScope SCOPE = new GangScope.Single(WorkloadKind.DEPLOYMENT, "ns", "web");

    private static List<HasMetadata> objects(Map<String, String> annotations) {
        return Fixtures.objects(Fixtures.deployment("ns", "web", 2, annotations));
    }

    private static ScopeResult translation(List<HasMetadata> objects) {
        return Fixtures.translator()
                .translateScopes(List.of(SCOPE), Fixtures.TIERS, Fixtures.lookup(objects))
                .get(0);
    }

    private static String pod(String name, String groupName) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: ns
                  labels: {pod-template-hash: abc12}
                  annotations: {%s}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-abc12, uid: r, controller: true}]
                spec: {containers: [{name: c, image: x}]}
                """.formatted(name, groupName == null ? "" : "scheduling.k8s.io/group-name: " + groupName);
    }

    @Test
    void aPodsGangIsFoundWhateverGroupNameItCarries() {
        var objects = objects(Map.of("topobridge.io/highest-tier", "2"));
        var lookup = Fixtures.lookup(objects);
        var translator = Fixtures.translator();
        PodGang expected = new PodGang(SCOPE, "tb-deploy-web");
        assertThat(translator.gangOf(Fixtures.pod(pod("web-abc12-a", null)), Fixtures.TIERS, lookup))
                .contains(expected);
        assertThat(translator.gangOf(Fixtures.pod(pod("web-abc12-b", "podgroup-1234")), Fixtures.TIERS, lookup))
                .as("Volcano's own PodGroup name does not hide the gang")
                .contains(expected);
        assertThat(translator.gangOf(Fixtures.pod(pod("web-abc12-c", "tb-deploy-web")), Fixtures.TIERS, lookup))
                .contains(expected);
        var unmanaged = objects(Map.of());
        assertThat(translator.gangOf(
                        Fixtures.pod(pod("web-abc12-d", null)), Fixtures.TIERS, Fixtures.lookup(unmanaged)))
                .isEmpty();
    }

    @Test
    void untiedPodsAreOneWarningPerWorkloadNamingTheGangAndThePods() {
        ScopeResult result = translation(objects(Map.of("topobridge.io/highest-tier", "2")));
        List<Finding> findings = UntiedPods.findings(
                result,
                List.of(
                        new PodTie("web-abc12-b", "podgroup-1234", "tb-deploy-web", null),
                        new PodTie("web-abc12-a", null, "tb-deploy-web", null),
                        new PodTie("web-abc12-c", "tb-deploy-web", "tb-deploy-web", null)));
        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.UNTIED_PODS);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.key()).isEqualTo("tb-deploy-web");
            assertThat(f.message())
                    .contains("2 pods run outside gang tb-deploy-web")
                    .contains("web-abc12-a (no group name), web-abc12-b (in \"podgroup-1234\")")
                    .doesNotContain("web-abc12-c")
                    .contains("delete them");
        });
    }

    @Test
    void theListIsBoundedAndTheCountCoversTheRest() {
        ScopeResult result = translation(objects(Map.of("topobridge.io/highest-tier", "2")));
        List<PodTie> pods = new ArrayList<>();
        IntStream.range(0, 1000)
                .forEach(i -> pods.add(new PodTie("web-abc12-%04d".formatted(i), null, "tb-deploy-web", null)));
        Finding finding = UntiedPods.findings(result, pods).get(0);
        assertThat(finding.message())
                .contains("1000 pods run")
                .contains("web-abc12-0004")
                .doesNotContain("web-abc12-0005")
                .contains("and 995 more");
        assertThat(finding.message().length()).isLessThan(1024);
        String hostile = "x".repeat(10_000) + "\n";
        Finding quoted = UntiedPods.findings(result, List.of(new PodTie("web-abc12-a", hostile, "tb-deploy-web", null)))
                .get(0);
        assertThat(quoted.message()).doesNotContain("\n").contains("(10001 chars)");
    }

    @Test
    void nothingWhenEveryPodIsTiedOrTheGangHasNoPodGroup() {
        ScopeResult result = translation(objects(Map.of("topobridge.io/highest-tier", "2")));
        assertThat(UntiedPods.findings(
                        result, List.of(new PodTie("web-abc12-a", "tb-deploy-web", "tb-deploy-web", null))))
                .isEmpty();
        assertThat(UntiedPods.findings(result, List.of())).isEmpty();
        assertThat(UntiedPods.findings(result, List.of(new PodTie("other-1", null, "tb-deploy-other", null))))
                .as("a pod of another gang")
                .isEmpty();
        ScopeResult refused = translation(objects(Map.of("topobridge.io/highest-tier", "9")));
        assertThat(refused.podGroups()).isEmpty();
        assertThat(UntiedPods.findings(refused, List.of(new PodTie("web-abc12-a", null, "tb-deploy-web", null))))
                .isEmpty();
    }

    @Test
    void podsInAKubernetesGangOfTheirOwnAreNotUntiedButSaidOnTheWorkload() {
        ScopeResult result = translation(objects(Map.of("topobridge.io/highest-tier", "2")));
        List<PodTie> pods = List.of(
                new PodTie("web-abc12-a", null, "tb-deploy-web", "spec.schedulingGroup (PodGroup \"web-0\")"),
                new PodTie("web-abc12-b", null, "tb-deploy-web", "spec.schedulingGroup (PodGroup \"web-0\")"),
                new PodTie("web-abc12-c", "tb-deploy-web", "tb-deploy-web", null));
        assertThat(UntiedPods.findings(result, pods)).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.PODS_IN_NATIVE_GANG);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.key()).isEqualTo("tb-deploy-web");
            assertThat(f.message())
                    .contains("2 pods are in a Kubernetes gang of their own")
                    .contains("web-abc12-a (spec.schedulingGroup (PodGroup \"web-0\"))")
                    .contains("out of gang tb-deploy-web");
        });
        // one untied next to them is still untied
        List<PodTie> mixed = new ArrayList<>(pods);
        mixed.add(new PodTie("web-abc12-d", null, "tb-deploy-web", null));
        assertThat(UntiedPods.findings(result, mixed))
                .extracting(Finding::reason)
                .containsExactlyInAnyOrder(WorkloadReason.PODS_IN_NATIVE_GANG, WorkloadReason.UNTIED_PODS);
        assertThat(UntiedPods.findings(result, mixed))
                .filteredOn(f -> f.reason() == WorkloadReason.UNTIED_PODS)
                .singleElement()
                .satisfies(f -> assertThat(f.message()).startsWith("Deployment/ns/web: 1 pod runs outside"));
    }
}
