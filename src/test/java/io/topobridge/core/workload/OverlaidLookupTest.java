package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.topobridge.core.render.InMemoryLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One lookup laid over another: what each layer answers, and what it leaves to the base. */
class OverlaidLookupTest {

    private static Deployment deployment(String namespace, String name, String image) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withAnnotations(java.util.Map.of("image", image))
                .endMetadata()
                .build();
    }

    private static HasMetadata podGroup(String name) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .endMetadata()
                .build();
    }

    private static String image(Optional<HasMetadata> object) {
        return object.orElseThrow().getMetadata().getAnnotations().get("image");
    }

    private static List<String> names(List<HasMetadata> objects) {
        return objects.stream().map(o -> o.getMetadata().getName()).toList();
    }

    private final WorkloadLookup base = new InMemoryLookup(
            List.of(deployment("ns", "b", "cached"), deployment("ns", "a", "cached"), podGroup("pg-cached")));

    @Test
    void givenObjectsWinOverTheBaseAndAreListedByName() {
        var lookup = base.withObjects(List.of(deployment("ns", "b", "given"), podGroup("pg-given")));

        assertThat(image(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "b"))).isEqualTo("given");
        assertThat(image(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "a"))).isEqualTo("cached");
        assertThat(names(lookup.list(WorkloadKind.DEPLOYMENT, "ns"))).containsExactly("a", "b");
        assertThat(names(lookup.podGroups("ns"))).containsExactly("pg-cached", "pg-given");
    }

    @Test
    void recentObjectsAreAskedOnlyOnAMissAndListedBesidesTheBase() {
        List<String> asked = new ArrayList<>();
        var lookup = base.withRecent(new WorkloadLookup.Recent() {
            @Override
            public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
                asked.add(name);
                return Optional.of(deployment(namespace, name, "recent"));
            }

            @Override
            public List<HasMetadata> list(WorkloadKind kind, String namespace, List<HasMetadata> listed) {
                List<HasMetadata> out = new ArrayList<>(listed);
                out.add(deployment(namespace, "aa", "recent"));
                return out;
            }
        });

        assertThat(image(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "a"))).isEqualTo("cached");
        assertThat(image(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "new"))).isEqualTo("recent");
        assertThat(lookup.get(WorkloadKind.DEPLOYMENT, null, "x")).isEmpty();
        assertThat(asked).containsExactly("new");
        assertThat(names(lookup.list(WorkloadKind.DEPLOYMENT, "ns"))).containsExactly("a", "b", "aa");
        assertThat(names(lookup.withObjects(List.of()).list(WorkloadKind.DEPLOYMENT, "ns")))
                .as("laid objects, even none, list by name")
                .containsExactly("a", "aa", "b");
    }

    @Test
    void domainsAndPodsComeFromTheirLayerTheRestFromTheBase() {
        var pod = new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata()
                .withName("p")
                .endMetadata()
                .build();
        var lookup = base.withPods(ns -> List.of(pod)).withDomains(() -> null);

        assertThat(lookup.pods("ns")).containsExactly(pod);
        assertThat(lookup.domains()).isNull();
        assertThat(base.withPods(ns -> List.of()).domains()).isSameAs(base.domains());
        assertThat(names(lookup.list(WorkloadKind.DEPLOYMENT, "ns")))
                .isEqualTo(names(base.list(WorkloadKind.DEPLOYMENT, "ns")));
        assertThat(lookup.namespaceLabels("ns")).isEqualTo(base.namespaceLabels("ns"));
        assertThat(lookup.resourceClaimsUnknown()).isEqualTo(base.resourceClaimsUnknown());
    }
}
