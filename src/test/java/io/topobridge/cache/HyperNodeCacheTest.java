package io.topobridge.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.topobridge.controller.workload.TestClusters;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.VolcanoObjects;
import io.topobridge.volcano.model.HyperNodeSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one HyperNode cache against the mock API server: its readers share one list and one watch. */
class HyperNodeCacheTest {

    private MockCluster cluster;
    private HyperNodeCache cache;

    /** A reader that notes what it heard. */
    private static final class Heard implements HyperNodeCache.Reader {
        final List<String> added = new CopyOnWriteArrayList<>();
        volatile boolean listed;

        @Override
        public void onAdd(HyperNode obj) {
            added.add(obj.getMetadata().getName());
        }

        @Override
        public void onUpdate(HyperNode before, HyperNode after) {}

        @Override
        public void onDelete(HyperNode obj, boolean unknown) {}

        @Override
        public void listed() {
            listed = true;
        }
    }

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start().installVolcanoCrds();
        cache = new HyperNodeCache(cluster.client(), TestClusters.registryWithVolcano(cluster));
        cluster.client()
                .resource(
                        VolcanoObjects.hyperNode(new DesiredHyperNode("rack-1", Map.of(), new HyperNodeSpec().tier(1))))
                .create();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void readersShareOneListAndALateReaderHearsWhatIsCachedAsAdded() {
        var first = new Heard();
        var late = new Heard();
        cache.open(first);
        await().atMost(Duration.ofSeconds(10)).until(() -> first.listed);
        cache.open(late);
        await().atMost(Duration.ofSeconds(10)).until(() -> late.listed && late.added.equals(List.of("rack-1")));

        assertThat(first.added).containsExactly("rack-1");
        assertThat(cache.list()).extracting(h -> h.getMetadata().getName()).containsExactly("rack-1");
        assertThat(RecordingDispatcher.of(cluster)
                        .requests(r -> r.method().equals("GET")
                                && r.path().startsWith("/apis/topology.volcano.sh/")
                                && !r.path().contains("watch=true")))
                .hasSize(1);

        cache.close(first);
        assertThat(cache.running()).isTrue();
        cache.close(late);
        assertThat(cache.running()).isFalse();
        assertThat(cache.list()).isEmpty();
    }
}
