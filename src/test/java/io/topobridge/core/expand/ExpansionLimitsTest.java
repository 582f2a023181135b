package io.topobridge.core.expand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The expansion is bounded: a workload asking for millions of pods makes at most the per-workload cap (whole gangs
 * only), the total cap holds across workloads, every other workload is still expanded, and the note names the object
 * and the caps.
 */
class ExpansionLimitsTest {

    private static final String HUGE = """
            apiVersion: orchestration.aibrix.ai/v1alpha1
            kind: StormService
            metadata: {name: huge-storm, namespace: ns}
            spec:
              replicas: 2000000
              selector: {matchLabels: {app: s}}
              template:
                metadata: {labels: {app: s}}
                spec:
                  roles:
                  - {name: prefill, replicas: 2, podGroupSize: 4, template: {spec: {containers: [{name: c, image: x}]}}}
                  - {name: decode, replicas: 3, template: {spec: {containers: [{name: c, image: x}]}}}
            ---
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: huge-lws, namespace: ns}
            spec: {replicas: 2000000, leaderWorkerTemplate: {size: 8, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: huge-deploy, namespace: ns}
            spec:
              replicas: 2000000
              selector: {matchLabels: {app: d}}
              template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: x}]}}
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: small, namespace: ns}
            spec:
              replicas: 3
              selector: {matchLabels: {app: small}}
              template: {metadata: {labels: {app: small}}, spec: {containers: [{name: c, image: x}]}}
            """;

    @Test
    void aWorkloadOfTwoMillionReplicasStopsAtItsCapInWholeGangsAndTheOthersAreStillExpanded() {
        Expanded e = Expanded.of(Expanded.objects(HUGE), new Expansion.Limits(100, 1000));

        Map<String, Integer> perRoot = perRoot(e.result().created());
        assertThat(perRoot.get("StormService/huge-storm")).isBetween(1, 100);
        assertThat(perRoot.get("LeaderWorkerSet/huge-lws")).isBetween(1, 100);
        assertThat(perRoot.get("Deployment/huge-deploy")).isEqualTo(100);
        assertThat(perRoot.get("StatefulSet/small"))
                .as("the small neighbour is whole")
                .isEqualTo(3);

        // whole gangs: each RoleSet has its 2 PodSets of 4 pods and 3 stateless pods (14 objects with the RoleSet),
        // each LWS group
        // its leader, worker StatefulSet and 7 workers
        long roleSets = count(e, "RoleSet");
        assertThat(roleSets).isEqualTo(7);
        assertThat(perRoot.get("StormService/huge-storm")).isEqualTo(7 * 14);
        long leaders = e.result().created().stream()
                .filter(o -> o.getKind().equals("Pod")
                        && "0".equals(o.getMetadata().getLabels().get("leaderworkerset.sigs.k8s.io/worker-index")))
                .count();
        long workers = e.result().created().stream()
                .filter(o -> o.getKind().equals("Pod")
                        && "huge-lws".equals(o.getMetadata().getLabels().get("leaderworkerset.sigs.k8s.io/name"))
                        && !"0".equals(o.getMetadata().getLabels().get("leaderworkerset.sigs.k8s.io/worker-index")))
                .count();
        assertThat(workers).isEqualTo(leaders * 7);

        assertThat(e.notes())
                .filteredOn(l -> l.contains("ExpansionCapped"))
                .hasSize(3)
                .allMatch(l -> l.contains("the cap is 100 per workload and 1000 in total"))
                .anyMatch(l -> l.startsWith("WARNING StormService/ns/huge-storm ExpansionCapped")
                        && l.contains("of the 28000000 objects"))
                .anyMatch(
                        l -> l.contains("Deployment/ns/huge-deploy") && l.contains("render shows 100 of the 2000001"));
    }

    @Test
    void theTotalCapHoldsAcrossWorkloads() {
        Expanded e = Expanded.of(Expanded.objects(HUGE), new Expansion.Limits(1000, 150));
        assertThat(e.result().created()).hasSizeLessThanOrEqualTo(150);
        assertThat(e.notes()).anyMatch(l -> l.contains("StatefulSet/ns/small ExpansionCapped"));
    }

    @Test
    void theDefaultCapBoundsAnLwsOfTwoMillionGroups() {
        var inputs = Expanded.objects("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: big, namespace: ns}
                spec: {replicas: 2000000, leaderWorkerTemplate: {size: 1000, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
                """);
        Expanded e = Expanded.of(inputs, Expansion.Limits.DEFAULT);
        assertThat(e.result().created()).hasSizeLessThanOrEqualTo(1000);
        assertThat(e.notes()).anyMatch(l -> l.contains("LeaderWorkerSet/ns/big ExpansionCapped"));
    }

    @Test
    void aGangLargerThanTheCapIsNotMadeInPart() {
        var inputs = Expanded.objects("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: RoleSet
                metadata: {name: wide, namespace: ns}
                spec:
                  roles:
                  - {name: r, replicas: 500, stateful: true, template: {spec: {containers: [{name: c, image: x}]}}}
                """);
        Expanded e = Expanded.of(inputs, new Expansion.Limits(100, 1000));
        assertThat(e.result().created()).isEmpty();
        assertThat(e.notes())
                .anyMatch(
                        l -> l.contains("RoleSet/ns/wide ExpansionCapped") && l.contains("render shows 0 of the 500"));
    }

    @Test
    void limitsRefuseNegativeCaps() {
        assertThatThrownBy(() -> new Expansion.Limits(-1, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("per workload -1");
    }

    private static long count(Expanded e, String kind) {
        return e.result().created().stream()
                .filter(o -> o.getKind().equals(kind))
                .count();
    }

    /** Created objects per input workload, following owner references up to an object the input holds. */
    private static Map<String, Integer> perRoot(List<HasMetadata> created) {
        Map<String, HasMetadata> byName = new HashMap<>();
        for (HasMetadata o : created) {
            byName.put(o.getKind() + "/" + o.getMetadata().getName(), o);
        }
        Map<String, Integer> out = new HashMap<>();
        for (HasMetadata o : created) {
            HasMetadata at = o;
            String root = null;
            while (root == null) {
                OwnerReference owner = at.getMetadata().getOwnerReferences().get(0);
                String key = owner.getKind() + "/" + owner.getName();
                HasMetadata parent = byName.get(key);
                if (parent == null) {
                    root = key;
                } else {
                    at = parent;
                }
            }
            out.merge(root, 1, Integer::sum);
        }
        return out;
    }
}
