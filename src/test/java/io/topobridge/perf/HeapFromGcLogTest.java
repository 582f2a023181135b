package io.topobridge.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The heap reading of the benchmarks ({@link ClusterBenchmarks#heapAfterForcedGcsMb}) against a real JVM that holds
 * a known amount: a child JVM keeps 64 MiB reachable, the reading forces its full GCs with {@code jcmd} and parses
 * the GC log it switched on — with G1 (one space in "Heap after GC") and with Serial (two generations, summed).
 */
class HeapFromGcLogTest {

    private static final int HELD_MIB = 64;

    /**
     * The child: holds {@code HELD_MIB} MiB in 64 KiB arrays (small enough for G1 to pack into regions: arrays of
     * half a region or more are humongous and each takes whole regions, which "used" counts), says "ready", and waits
     * for its stdin to close.
     */
    public static final class Holder {
        static byte[][] held;

        public static void main(String[] args) throws Exception {
            held = new byte[Integer.parseInt(args[0]) * 16][];
            for (int i = 0; i < held.length; i++) {
                held[i] = new byte[1 << 16];
                held[i][i % held[i].length] = 1;
            }
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0) {
                // held stays reachable until the parent closes our stdin
            }
            System.out.println(held.length);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-XX:+UseG1GC", "-XX:+UseSerialGC"})
    void readsTheHeapAChildJvmHoldsAfterEachForcedFullGc(String collector, @TempDir Path dir) throws Exception {
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        collector,
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Holder.class.getName(),
                        Integer.toString(HELD_MIB))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");

            double[] mb = ClusterBenchmarks.heapAfterForcedGcsMb(child.pid(), dir.resolve("child.gc.log"), 3);

            assertThat(mb).hasSize(3);
            for (double reading : mb) {
                // the 64 MiB held plus the JVM's own few MiB; the young garbage of start-up is gone
                assertThat(reading).isBetween((double) HELD_MIB, HELD_MIB + 24.0);
            }
        } finally {
            child.getOutputStream().close();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    @org.junit.jupiter.api.Test
    void aFullGcWithoutAHeapAfterBlockIsAnError() {
        String log = "[1.0s] GC(7) Pause Full (Diagnostic Command) 70M->66M(256M) 12.3ms\n";
        assertThatThrownBy(() -> ClusterBenchmarks.heapAfterFullGcsMb(log))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("GC(7)");
    }

    @org.junit.jupiter.api.Test
    void gcsOtherThanTheForcedOnesAreNotCounted() {
        String log = String.join(
                "\n",
                "[1.0s] GC(3) Heap before GC invocations=3 (full 0):",
                "[1.0s] GC(3)  garbage-first heap   total 262144K, used 90000K [0x0, 0x0)",
                "[1.0s] GC(3) Heap after GC invocations=4 (full 0):",
                "[1.0s] GC(3)  garbage-first heap   total 262144K, used 80000K [0x0, 0x0)",
                "[1.0s] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 88M->78M(256M) 3.1ms",
                "[2.0s] GC(4) Heap before GC invocations=4 (full 0):",
                "[2.0s] GC(4)  garbage-first heap   total 262144K, used 81920K [0x0, 0x0)",
                "[2.0s] GC(4) Heap after GC invocations=5 (full 1):",
                "[2.0s] GC(4)  garbage-first heap   total 262144K, used 67584K [0x0, 0x0)",
                "[2.0s] GC(4) Pause Full (Diagnostic Command) 80M->66M(256M) 20.0ms");
        assertThat(ClusterBenchmarks.heapAfterFullGcsMb(log)).containsExactly(66.0);
    }
}
