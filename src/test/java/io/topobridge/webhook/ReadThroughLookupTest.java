package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.devcluster.MockCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Admission's lookup: a cache miss is read once from the API server; a hit and an absent object are not. */
class ReadThroughLookupTest {

    private static Deployment deployment(String name, String image) {
        return new DeploymentBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata()
                .withNewSpec().withNewTemplate().withNewSpec().addNewContainer().withName("c").withImage(image)
                .endContainer().endSpec().endTemplate().endSpec().build();
    }

    @Test
    void aMissIsReadFromTheServerAndAHitIsNot() {
        try (MockCluster cluster = MockCluster.start()) {
            var client = cluster.client();
            client.resource(deployment("fresh", "live")).create();
            client.resource(deployment("cached", "live")).create();
            var lookup = new ReadThroughLookup(new InMemoryLookup(List.of(deployment("cached", "from-cache"))), client);

            assertThat(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "fresh")).get()
                    .extracting(d -> ((Deployment) d).getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                    .isEqualTo("live");
            assertThat(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "cached")).get()
                    .extracting(d -> ((Deployment) d).getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                    .isEqualTo("from-cache");
            assertThat(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "absent")).isEmpty();
            // a custom kind whose CRD is not installed: the server answers 404, the lookup a miss
            assertThat(lookup.get(WorkloadKind.ROLE_SET, "ns", "absent")).isEmpty();
        }
    }
}
