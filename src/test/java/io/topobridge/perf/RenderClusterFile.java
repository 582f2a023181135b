package io.topobridge.perf;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A GB200 cluster as Node manifests for {@code render}: NVL72 racks of 18 compute trays (4 GPUs each, one NVLink
 * clique per rack), one topograph leaf switch per row of 5 racks and one spine per 64 leaves, each tray carrying the
 * labels and capacity GPU feature discovery and the kubelet give it. 20,000 trays make 1,112 racks, 223 leaves and 4
 * spines: 1,339 HyperNodes. {@code RenderClusterFile FILE [NODES]}.
 */
public final class RenderClusterFile {

    static final int TRAYS_PER_RACK = 18;
    static final int RACKS_PER_LEAF = 5;
    static final int LEAVES_PER_SPINE = 64;

    private RenderClusterFile() {}

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(out, nodes);
        }
    }

    /** {@code nodes} trays as multi-document YAML. */
    static void write(Writer out, int nodes) throws IOException {
        for (int i = 0; i < nodes; i++) {
            int rack = i / TRAYS_PER_RACK;
            int leaf = rack / RACKS_PER_LEAF;
            int spine = leaf / LEAVES_PER_SPINE;
            String name = String.format("gb200-r%04d-t%02d", rack, i % TRAYS_PER_RACK + 1);
            out.write("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels:\n");
            out.write("    kubernetes.io/hostname: " + name + "\n");
            out.write("    kubernetes.io/arch: arm64\n    kubernetes.io/os: linux\n");
            out.write("    node.kubernetes.io/instance-type: gb200-compute-tray\n");
            out.write("    nvidia.com/gpu.present: \"true\"\n    nvidia.com/gpu.product: NVIDIA-GB200\n");
            out.write("    nvidia.com/gpu.count: \"4\"\n");
            out.write(String.format("    nvidia.com/gpu.clique: %08x-0000-4000-8000-%012x.1%n", rack * 7919, rack));
            out.write(String.format("    fabric.topograph.run/tier-0: S-%016X%n", 0x7d1a0000L + leaf));
            out.write(String.format("    fabric.topograph.run/tier-1: S-%016X%n", 0x2c5e0000L + spine));
            out.write("status:\n  capacity:\n    cpu: \"144\"\n    memory: 960Gi\n    nvidia.com/gpu: \"4\"\n"
                    + "    pods: \"110\"\n  allocatable:\n    cpu: \"140\"\n    memory: 940Gi\n"
                    + "    nvidia.com/gpu: \"4\"\n    pods: \"110\"\n");
        }
    }
}
