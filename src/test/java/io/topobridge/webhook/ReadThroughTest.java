package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.topobridge.apply.RecentObjects;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Admission's lookup: a cache miss is read once from the API server (on a worker thread); a hit and an absent object
 * are not.
 */
class ReadThroughTest {

    private static Deployment deployment(String name, String image) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .withNewTemplate()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage(image)
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    @Test
    void aMissIsReadFromTheServerAndAHitIsNot() {
        try (MockCluster cluster = RecordingDispatcher.start()) {
            var client = cluster.client();
            client.resource(deployment("fresh", "live")).create();
            client.resource(deployment("cached", "live")).create();
            var lookup = new InMemoryLookup(List.of(deployment("cached", "from-cache")))
                    .withRecent(new ReadThrough(client, new RecentObjects()));

            assertThat(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "fresh"))
                    .get()
                    .extracting(ReadThroughTest::image)
                    .isEqualTo("live");
            assertThat(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "cached"))
                    .get()
                    .extracting(ReadThroughTest::image)
                    .isEqualTo("from-cache");
            assertThat(lookup.get(WorkloadKind.DEPLOYMENT, "ns", "absent")).isEmpty();
            // a custom kind whose CRD is not installed: the server answers 404, the lookup a miss
            assertThat(lookup.get(WorkloadKind.ROLE_SET, "ns", "absent")).isEmpty();
        }
    }

    @Test
    void anObjectReadLiveIsListedUntilTheCacheHasItOrItIsOld() {
        try (MockCluster cluster = RecordingDispatcher.start()) {
            var client = cluster.client();
            client.resource(deployment("fresh", "live")).create();
            long[] now = {0};
            var cache = new java.util.ArrayList<io.fabric8.kubernetes.api.model.HasMetadata>(
                    List.of(deployment("cached", "from-cache")));
            io.topobridge.core.workload.WorkloadLookup cached = new io.topobridge.core.workload.WorkloadLookup() {
                @Override
                public java.util.Optional<io.fabric8.kubernetes.api.model.HasMetadata> get(
                        WorkloadKind kind, String namespace, String name) {
                    return cache.stream()
                            .filter(d -> d.getMetadata().getName().equals(name))
                            .findFirst();
                }

                @Override
                public List<io.fabric8.kubernetes.api.model.HasMetadata> list(WorkloadKind kind, String namespace) {
                    return List.copyOf(cache);
                }
            };
            var lookup = cached.withRecent(new ReadThrough(client, new RecentObjects(() -> now[0])));
            assertThat(names(lookup.list(WorkloadKind.DEPLOYMENT, "ns"))).containsExactly("cached");
            lookup.get(WorkloadKind.DEPLOYMENT, "ns", "fresh");
            assertThat(names(lookup.list(WorkloadKind.DEPLOYMENT, "ns"))).containsExactly("cached", "fresh");
            assertThat(names(lookup.list(WorkloadKind.DEPLOYMENT, "other"))).containsExactly("cached");
            assertThat(names(lookup.list(WorkloadKind.STATEFUL_SET, "ns"))).containsExactly("cached");
            now[0] = RecentObjects.TTL_NANOS + 1;
            assertThat(names(lookup.list(WorkloadKind.DEPLOYMENT, "ns")))
                    .as("forgotten after a while")
                    .containsExactly("cached");
            now[0] = 0;
            lookup.get(WorkloadKind.DEPLOYMENT, "ns", "fresh");
            var cachedCopy = deployment("fresh", "from-cache");
            // the cache catches up: it shows the object at the version read live, or a later one
            cachedCopy
                    .getMetadata()
                    .setResourceVersion(client.apps()
                            .deployments()
                            .inNamespace("ns")
                            .withName("fresh")
                            .get()
                            .getMetadata()
                            .getResourceVersion());
            cache.add(cachedCopy);
            assertThat(lookup.list(WorkloadKind.DEPLOYMENT, "ns"))
                    .as("the cache's copy once it has one")
                    .hasSize(2)
                    .allMatch(d -> image(d).equals("from-cache"));
        }
    }

    /**
     * Over HTTPS: a review that finds its object in the cache is answered on the event loop; one that misses is run
     * again on a worker thread, where the live read waits, and answers with what it read.
     */
    @Test
    void aReviewMovesToAWorkerThreadOnlyForALiveRead() {
        try (MockCluster cluster = RecordingDispatcher.start()) {
            var client = cluster.client();
            client.resource(deployment("fresh", "live")).create();
            var lookup = new InMemoryLookup(List.of(deployment("cached", "from-cache")))
                    .withRecent(new ReadThrough(client, new RecentObjects()));
            List<String> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
            AdmissionWebhook owner = WebhookFixture.webhook("owner", request -> {
                threads.add(Thread.currentThread().getName());
                String image = lookup.get(WorkloadKind.DEPLOYMENT, "ns", request.namespace())
                        .map(ReadThroughTest::image)
                        .orElse("none");
                return AdmissionAnswer.allow("allowed", List.of(image));
            });
            try (WebhookFixture fixture = new WebhookFixture(List.of(owner))) {
                assertThat(warning(fixture, "cached")).isEqualTo("from-cache");
                assertThat(threads).singleElement().asString().contains("eventloop");

                threads.clear();
                assertThat(warning(fixture, "fresh")).isEqualTo("live");
                assertThat(threads).hasSize(2);
                assertThat(threads.get(0)).as("the first try").contains("eventloop");
                assertThat(threads.get(1)).as("the try that reads live").contains("worker");

                threads.clear();
                assertThat(warning(fixture, "fresh"))
                        .as("read live a moment ago: known without a read")
                        .isEqualTo("live");
                assertThat(threads).singleElement().asString().contains("eventloop");

                threads.clear();
                assertThat(warning(fixture, "absent")).isEqualTo("none");
                assertThat(threads).hasSize(2);
            }
        }
    }

    private static String warning(WebhookFixture fixture, String deployment) {
        return fixture.request()
                .body(Reviews.podCreate(
                                deployment, Reviews.JSON.createObjectNode().put("kind", "Pod"))
                        .toString())
                .post("/owner")
                .then()
                .statusCode(200)
                .extract()
                .path("response.warnings[0]");
    }

    private static String image(io.fabric8.kubernetes.api.model.HasMetadata deployment) {
        return ((Deployment) deployment)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getImage();
    }

    private static List<String> names(List<io.fabric8.kubernetes.api.model.HasMetadata> objects) {
        return objects.stream().map(o -> o.getMetadata().getName()).toList();
    }
}
