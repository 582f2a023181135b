package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.translate.TranslationResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The validating webhook's answer uses the reconciler's messages, word for word. */
class WorkloadValidationTest {

    @Test
    void sameMessageAsTheReconciler() {
        var bad = Fixtures.object(
                WorkloadTranslatorTest.deployment("ns", "d", 2, Map.of("topobridge.io/highest-tier", "leaf")));
        List<Finding> admission = Fixtures.translator().validate(bad, Fixtures.TIERS, Fixtures.lookup(List.of()));
        List<Finding> reconciler = TranslationResult.of(
                        Fixtures.translator(), List.of(bad), Fixtures.TIERS, Fixtures.lookup(List.of(bad)))
                .findings();
        assertThat(admission).isNotEmpty().isEqualTo(reconciler);
        assertThat(admission.get(0).message())
                .contains("Deployment/ns/d")
                .contains("topobridge.io/highest-tier=\"leaf\"");
    }

    @Test
    void minMemberAboveTheWorkloadsPodsIsRefused() {
        var bad = Fixtures.object(
                WorkloadTranslatorTest.deployment("ns", "d", 2, Map.of("topobridge.io/min-member", "5")));
        assertThat(Fixtures.translator().validate(bad, Fixtures.TIERS, Fixtures.lookup(List.of())))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.isRejection()).isTrue();
                    assertThat(f.message())
                            .isEqualTo(
                                    "Deployment/ns/d: topobridge.io/min-member=\"5\" is more than the 2 pods of the gang, so it could never start");
                });
        var inGroup = Fixtures.object(WorkloadTranslatorTest.deployment(
                "ns", "d", 2, Map.of("topobridge.io/min-member", "5", "topobridge.io/group", "g")));
        var partner =
                Fixtures.object(WorkloadTranslatorTest.deployment("ns", "e", 3, Map.of("topobridge.io/group", "g")));
        assertThat(Fixtures.translator().validate(inGroup, Fixtures.TIERS, Fixtures.lookup(List.of(partner))))
                .as("a group's size counts its other members, as the reconciler does")
                .isEmpty();
        assertThat(Fixtures.translator().validate(inGroup, Fixtures.TIERS, Fixtures.lookup(List.of())))
                .as("alone in its group it is refused, as the reconciler refuses it")
                .singleElement()
                .satisfies(f -> assertThat(f.message()).contains("more than the 2 pods of the gang"));
    }

    @Test
    void validAndUnmanagedWorkloadsPass() {
        assertThat(Fixtures.translator()
                        .validate(
                                Fixtures.object(WorkloadTranslatorTest.deployment(
                                        "ns",
                                        "d",
                                        2,
                                        Map.of("topobridge.io/highest-tier", "rack", "topobridge.io/mode", "soft"))),
                                Fixtures.TIERS,
                                Fixtures.lookup(List.of())))
                .isEmpty();
        assertThat(Fixtures.translator()
                        .validate(
                                Fixtures.object(WorkloadTranslatorTest.deployment("ns", "d", 2, Map.of())),
                                Fixtures.TIERS,
                                Fixtures.lookup(List.of())))
                .isEmpty();
    }

    @Test
    void stormServiceTemplatesAreChecked() {
        var storm = Fixtures.object("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: StormService
                metadata: {name: s, namespace: ns, annotations: {topobridge.io/highest-tier: "2"}}
                spec:
                  template:
                    metadata: {annotations: {topobridge.io/mode: sideways}}
                    spec:
                      roles:
                      - name: decode
                        replicas: 1
                        template:
                          metadata: {annotations: {volcano.sh/network-topology-highest-tier: "3"}}
                          spec: {containers: [{name: c, image: x}]}
                """);
        List<Finding> findings = Fixtures.translator().validate(storm, Fixtures.TIERS, Fixtures.lookup(List.of()));
        assertThat(findings)
                .extracting(Finding::message)
                .anySatisfy(m -> assertThat(m).contains("topobridge.io/mode=\"sideways\" (RoleSet template)"));
        assertThat(findings)
                .extracting(Finding::message)
                .anySatisfy(m -> assertThat(m)
                        .contains("volcano.sh/network-topology-highest-tier=\"3\" (pod template of role decode)"));
    }
}
