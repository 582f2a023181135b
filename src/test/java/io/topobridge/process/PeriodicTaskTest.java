package io.topobridge.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PeriodicTaskTest {

    @Test
    void aFailedPassIsHandedToTheOwnerAndTheNextOneStillComes() throws InterruptedException {
        var passes = new CountDownLatch(2);
        var failed = new AtomicInteger();
        var task = new PeriodicTask(
                new PeriodicTask.Schedule("test-periodic", 0, 1),
                () -> {},
                () -> {
                    passes.countDown();
                    throw new IllegalStateException("one bad pass");
                },
                e -> failed.incrementAndGet());
        task.start();
        try {
            assertThat(passes.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(failed.get()).isPositive();
        } finally {
            task.stop();
        }
    }

    @Test
    void startsOnceAndRunsWhatComesBeforeOnlyWhenItStarts() {
        var before = new AtomicInteger();
        var task = new PeriodicTask(
                new PeriodicTask.Schedule("test-periodic", 3600, 3600), before::incrementAndGet, () -> {}, e -> {});
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
