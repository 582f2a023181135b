package io.topobridge.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.topobridge.apply.RecentObjects;
import io.topobridge.controller.workload.TestClusters;
import io.topobridge.core.OptionalApi;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An API server without {@code resource.k8s.io} (Kubernetes before 1.34; the mock answers 404 for the whole group):
 * the caches say so in one line without a stack trace and start no informer on it; one that serves it is cached.
 */
class OptionalApisTest {

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler recorder = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private MockCluster cluster;
    private WorkloadCaches caches;

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start().installVolcanoCrds();
        Logger.getLogger("").addHandler(recorder);
    }

    @AfterEach
    void stop() {
        if (caches != null) {
            caches.stop();
        }
        Logger.getLogger("").removeHandler(recorder);
        cluster.close();
    }

    private void startCaches() {
        caches = new WorkloadCaches(cluster.client(), TestClusters.registryWithVolcano(cluster), new RecentObjects());
        caches.start();
        await().atMost(Duration.ofSeconds(10)).until(caches::ready);
    }

    @Test
    void withoutResourceK8sIoOneLineSaysWhatIsOffAndNoStackTrace() throws InterruptedException {
        RecordingDispatcher.of(cluster).stopServing("resource.k8s.io");
        assertThat(ServedApis.missing(cluster.client())).containsExactly(OptionalApi.DRA);

        startCaches();
        // an informer's failure would come from another thread just after the start
        Thread.sleep(1000);

        assertThat(caches.resourceClaimsUnknown())
                .isEqualTo("resource.k8s.io/v1 resourceclaims and resourceclaimtemplates not served (Kubernetes 1.34"
                        + " and later serve them)");
        List<LogRecord> aboutDra = records.stream()
                .filter(r -> String.valueOf(r.getMessage()).contains("resource.k8s.io")
                        || String.valueOf(r.getMessage()).contains("ResourceClaim"))
                .toList();
        assertThat(aboutDra).singleElement().satisfies(r -> {
            assertThat(r.getLevel()).isEqualTo(Level.INFO);
            assertThat(r.getMessage())
                    .isEqualTo(OptionalApi.DRA.missing())
                    .contains("devices gangs claim through DRA are not counted");
        });
        assertThat(records).as("no stack trace, no error").allSatisfy(r -> {
            assertThat(r.getThrown()).as(r.getMessage()).isNull();
            assertThat(r.getLevel().intValue()).as(r.getMessage()).isLessThan(Level.WARNING.intValue());
        });
        assertThat(RecordingDispatcher.of(cluster).requests(r -> r.path().startsWith("/apis/resource.k8s.io/v1/")))
                .as("no informer lists the missing group")
                .isEmpty();
    }

    @Test
    void aServerWithResourceK8sIoHasItsClaimsCached() {
        assertThat(ServedApis.missing(cluster.client())).isEmpty();
        startCaches();
        await().atMost(Duration.ofSeconds(10)).until(() -> caches.resourceClaimsUnknown() == null);
        assertThat(records)
                .noneSatisfy(r -> assertThat(String.valueOf(r.getMessage())).contains("not served"));
    }
}
