package io.topobridge.perf;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Translating a cluster's annotated workloads into PodGroups (target: 5,000 workloads in under a second).
 * Sample time, so JMH reports the median (p0.50) next to the mean.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class WorkloadTranslateBenchmark {

    @Param({"5000"})
    int workloads;

    private List<HasMetadata> objects;
    private InMemoryLookup lookup;
    private WorkloadTranslator translator;
    private final TierCatalog tiers = TierCatalog.of(
            List.of(
                    new TierCatalog.Tier(1, "nvlink"),
                    new TierCatalog.Tier(2, "rack"),
                    new TierCatalog.Tier(3, "spine")),
            List.of());

    @Setup
    public void setUp() {
        objects = WorkloadCorpus.build(workloads, 42);
        lookup = new InMemoryLookup(objects);
        translator = Fixtures.translator(Fixtures.defaultSettings());
        TranslationResult check = translate();
        if (check.findings().stream().anyMatch(f -> f.isRejection())
                || check.podGroups().size() < workloads / 2) {
            throw new IllegalStateException("the corpus must translate cleanly: " + check.findings());
        }
    }

    @Benchmark
    public TranslationResult translate() {
        return TranslationResult.of(translator, objects, tiers, lookup);
    }
}
