package io.topobridge.perf;

import io.topobridge.core.topology.NodeInfo;
import io.topobridge.core.topology.TopologyBuilder;
import io.topobridge.core.topology.TopologyResult;
import io.topobridge.core.topology.TopologySettings;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole tree from scratch, on one thread: the work of one controller pass (target: 50,000 nodes in under
 * 200 ms). Sample mode, so JMH reports the median (p0.50) alongside the mean. {@code auto-split}: every rack is
 * split into two NVLink partitions, so the tree gets its partition level.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(
        value = 1,
        jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:ActiveProcessorCount=1"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class TopologyBuildBenchmark {

    @Param({"10000", "50000"})
    int nodes;

    @Param({"auto", "tiers", "auto-split"})
    String config;

    private List<NodeInfo> cluster;
    private TopologyBuilder builder;

    @Setup
    public void setUp() {
        cluster = TopologyClusters.nodes(nodes, "auto-split".equals(config));
        TopologySettings settings = !"tiers".equals(config)
                ? TopologySettings.parse(TopologySettings.AUTO, null)
                : TopologySettings.parse(
                        "auto",
                        List.of(
                                "nvidia.com/gpu.clique=nvlink",
                                "fabric.topograph.run/tier-0=leaf",
                                "fabric.topograph.run/tier-1=spine",
                                "fabric.topograph.run/tier-2=core"));
        builder = new TopologyBuilder(settings);
        TopologyResult result = builder.build(cluster, List.of());
        if (!result.findings().isEmpty() && result.hyperNodes().isEmpty()) {
            throw new IllegalStateException("benchmark cluster builds no tree: " + result.findings());
        }
    }

    @Benchmark
    public TopologyResult build() {
        return builder.build(cluster, List.of());
    }
}
