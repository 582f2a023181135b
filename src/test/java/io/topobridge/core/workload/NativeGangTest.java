package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.changes.QueueStates;
import io.topobridge.core.workload.reconcile.ClusterFacts;
import io.topobridge.core.workload.reconcile.Outcome;
import io.topobridge.core.workload.reconcile.PassFacts;
import io.topobridge.core.workload.reconcile.ReconcileSettings;
import io.topobridge.core.workload.reconcile.ScopeReconciler;
import io.topobridge.core.workload.reconcile.TestSettings;
import io.topobridge.testing.Renderers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pods already in a Kubernetes gang of their own (Kubernetes 1.36 gang scheduling: {@code spec.schedulingGroup}
 * naming a PodGroup of {@code scheduling.k8s.io}, KEP-4671/KEP-5832) belong to a managed Deployment: {@code render}
 * admits them untouched and says so, and the reconcile step reports them on the Deployment instead of as untied pods.
 */
class NativeGangTest {

    private static final String DEPLOYMENT =
            Fixtures.deployment("llm", "decode", 2, Map.of("topobridge.io/highest-tier", "2"));

    private static String pod(String name, String schedulingGroup) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: llm
                  labels: {app: decode, pod-template-hash: 7c9d5}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: decode-7c9d5, uid: r, controller: true}]
                spec:
                  %s
                  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
                """.formatted(
                name, schedulingGroup == null ? "" : "schedulingGroup: {podGroupName: " + schedulingGroup + "}");
    }

    @Test
    void renderAdmitsThePodUntouchedAndSaysWhy() {
        List<HasMetadata> inputs = Fixtures.objects(
                DEPLOYMENT + "---\n" + pod("decode-7c9d5-a", "decode-0") + "---\n" + pod("decode-7c9d5-b", null));
        RenderOutput out = Renderers.of(
                        TopologySettings.parse("auto", List.of()),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(inputs);
        Pod inGang = out.pods().stream()
                .filter(p -> p.getMetadata().getName().equals("decode-7c9d5-a"))
                .findFirst()
                .orElseThrow();
        assertThat(inGang.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(inGang.getSpec().getSchedulerName()).isNull();
        assertThat(inGang.getSpec().getAdditionalProperties()).containsKey("schedulingGroup");
        Pod plain = out.pods().stream()
                .filter(p -> p.getMetadata().getName().equals("decode-7c9d5-b"))
                .findFirst()
                .orElseThrow();
        assertThat(plain.getMetadata().getAnnotations())
                .containsEntry(VolcanoApi.GROUP_NAME_ANNOTATION, "tb-deploy-decode");
        assertThat(out.findings())
                .filteredOn(f -> f.reason().reason().equals("NativeGang"))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.object().name()).isEqualTo("decode-7c9d5-a");
                    assertThat(f.line()).contains("spec.schedulingGroup (PodGroup \"decode-0\")");
                });
    }

    @Test
    void theReconcileStepSaysOnTheWorkloadThatItsPodsAreInANativeGangNotThatTheyAreUntied() {
        List<HasMetadata> objects = Fixtures.objects(DEPLOYMENT);
        List<Pod> live =
                List.of(Fixtures.pod(pod("decode-7c9d5-a", "decode-0")), Fixtures.pod(pod("decode-7c9d5-b", null)));
        ClusterFacts placements = new ClusterFacts() {
            @Override
            public List<Pod> livePods(String namespace) {
                return "llm".equals(namespace) ? live : List.of();
            }
        };
        var reconciler = new ScopeReconciler(
                Fixtures.translator(),
                new ReconcileSettings(
                        false, "topobridge.io/enabled", Duration.ZERO, DomainLossRestarts.Settings.DEFAULTS),
                TestSettings.NO_RESERVATION_LIMITS);
        Outcome outcome = reconciler
                .reconcile(
                        List.of(new GangScope.Single(WorkloadKind.DEPLOYMENT, "llm", "decode")),
                        new InMemoryLookup(objects),
                        new PassFacts(
                                Fixtures.TIERS,
                                Fixtures.TIERS,
                                null,
                                QueueStates.UNKNOWN,
                                Instant.parse("2026-12-01T10:00:00Z"),
                                placements))
                .get(0);
        assertThat(outcome.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.PODS_IN_NATIVE_GANG)
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.object().kind()).isEqualTo("Deployment");
                    assertThat(f.message())
                            .contains("1 pod is in a Kubernetes gang of its own")
                            .contains("decode-7c9d5-a");
                });
        // the pod created without the webhook, in no gang at all, is still reported as untied, alone
        assertThat(outcome.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.UNTIED_PODS)
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("1 pod runs outside")
                        .contains("decode-7c9d5-b")
                        .doesNotContain("decode-7c9d5-a"));
        assertThat(outcome.findings()).noneMatch(Finding::isRejection);
    }
}
