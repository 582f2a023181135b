package io.topobridge.perf;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.translate.TranslationResult;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Wall and CPU time of translating the 5,000-workload corpus, as medians over many runs after warm-up.
 * CPU time is what the translator costs even on a machine shared with other work (where JMH's wall-clock
 * samples swing with the neighbours). Run: {@code java -cp <test classpath> io.topobridge.perf.WorkloadTranslateLatency}.
 */
public final class WorkloadTranslateLatency {

    private WorkloadTranslateLatency() {}

    public static void main(String[] args) {
        int workloads = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        var tiers = Fixtures.TIERS;
        List<HasMetadata> objects = WorkloadCorpus.build(workloads, 42);
        var lookup = new InMemoryLookup(objects);
        var translator = Fixtures.translator(Fixtures.defaultSettings());
        var threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20; i++) {
            TranslationResult.of(translator, objects, tiers, lookup);
        }
        List<Long> wall = new ArrayList<>();
        List<Long> cpu = new ArrayList<>();
        int podGroups = 0;
        for (int i = 0; i < 101; i++) {
            long cpuStart = threads.getCurrentThreadCpuTime();
            long wallStart = System.nanoTime();
            podGroups = TranslationResult.of(translator, objects, tiers, lookup)
                    .podGroups()
                    .size();
            wall.add((System.nanoTime() - wallStart) / 1_000_000);
            cpu.add((threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000);
        }
        Collections.sort(wall);
        Collections.sort(cpu);
        System.out.printf(
                "%d workloads -> %d PodGroups: wall median %d ms (p90 %d), cpu median %d ms (p90 %d)%n",
                workloads, podGroups, wall.get(50), wall.get(90), cpu.get(50), cpu.get(90));
    }
}
