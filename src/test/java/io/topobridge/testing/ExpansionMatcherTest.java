package io.topobridge.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.kinds.Kinds;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The comparison {@code ExpansionE2E} proves the expansion with: literal values exactly, generated tokens by shape,
 * one token to one actual value everywhere, annotations of non-workload controllers left out, and a readable
 * difference for what does not match.
 */
class ExpansionMatcherTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: ns, uid: d1}
            spec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: x}]}}}
            """;

    /** What the Deployment and ReplicaSet controllers made for {@link #DEPLOYMENT} on a real cluster. */
    private static List<HasMetadata> real(String secondPodHash, String podLabel) {
        return List.of(
                object("""
                        apiVersion: apps/v1
                        kind: ReplicaSet
                        metadata:
                          name: web-7d4b9c8f6
                          namespace: ns
                          labels: {app: web, pod-template-hash: 7d4b9c8f6}
                          annotations: {deployment.kubernetes.io/desired-replicas: "2", deployment.kubernetes.io/max-replicas: "3", deployment.kubernetes.io/revision: "1"}
                          ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d1, controller: true, blockOwnerDeletion: true}]
                        """),
                pod("web-7d4b9c8f6-x2k9q", "7d4b9c8f6", "web", null),
                pod("web-" + secondPodHash + "-bq7zt", secondPodHash, podLabel, "podgroup-123"));
    }

    private static HasMetadata pod(String name, String hash, String app, String volcanoGroup) {
        Pod pod = (Pod) object("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: ns
                  labels: {app: %s, pod-template-hash: %s}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-%s, uid: r1, controller: true, blockOwnerDeletion: true}]
                """.formatted(name, app, hash, hash));
        if (volcanoGroup != null) {
            pod.getMetadata()
                    .setAnnotations(
                            new java.util.HashMap<>(java.util.Map.of("scheduling.k8s.io/group-name", volcanoGroup)));
        }
        return pod;
    }

    private static HasMetadata object(String yaml) {
        return (HasMetadata) SERIALIZATION.unmarshal(yaml);
    }

    private static List<String> compare(List<HasMetadata> actual) {
        Expansion.Result expansion = Kinds.expansion().expand(List.of(object(DEPLOYMENT)), Expansion.Limits.DEFAULT);
        return new ExpansionMatcher(expansion.generated(), Set.of("scheduling.k8s.io/group-name"))
                .differences(expansion.created(), actual);
    }

    @Test
    void whatTheControllersMadeMatchesTokensByShapeAndVolcanosAnnotationIsLeftOut() {
        assertThat(compare(real("7d4b9c8f6", "web"))).isEmpty();
    }

    @Test
    void oneTokenStandsForOneActualValueEverywhere() {
        List<String> differences = compare(real("6f8d7c9b5", "web"));
        assertThat(differences)
                .anySatisfy(
                        d -> assertThat(d).startsWith("missing Pod web-").contains("closest is web-6f8d7c9b5-bq7zt"))
                .anySatisfy(d -> assertThat(d).startsWith("unexpected Pod web-6f8d7c9b5-bq7zt"));
    }

    @Test
    void aLiteralDifferenceIsNamedWithBothValues() {
        List<String> differences = compare(real("7d4b9c8f6", "api"));
        assertThat(differences).anySatisfy(d -> assertThat(d).contains("label app: expected \"web\", actual \"api\""));
    }

    @Test
    void aMissingObjectIsReported() {
        List<HasMetadata> actual = real("7d4b9c8f6", "web").subList(0, 2);
        assertThat(compare(actual)).singleElement().asString().startsWith("missing Pod web-");
    }
}
