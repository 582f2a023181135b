package io.topobridge.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

class PeriodicTaskTest {

    private static final Logger LOG = Logger.getLogger(PeriodicTaskTest.class);

    @Test
    void aFailedPassIsLoggedAndTheNextOneStillComes() throws InterruptedException {
        var passes = new CountDownLatch(2);
        var task = new PeriodicTask(
                "test-periodic",
                0,
                1,
                () -> {},
                () -> {
                    passes.countDown();
                    throw new IllegalStateException("one bad pass");
                },
                LOG,
                "test: pass failed");
        task.start();
        try {
            assertThat(passes.await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            task.stop();
        }
    }

    @Test
    void startsOnceAndRunsWhatComesBeforeOnlyWhenItStarts() {
        var before = new AtomicInteger();
        var task = new PeriodicTask(
                "test-periodic", 3600, 3600, before::incrementAndGet, () -> {}, LOG, "test: pass failed");
        task.start();
        task.start();
        assertThat(before).hasValue(1);
        task.stop();
        task.stop();
        task.start();
        assertThat(before).hasValue(2);
        task.stop();
    }
}
