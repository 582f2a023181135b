package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The node names of a pool of {@value #RACKS} GB200 NVL72 racks of {@value #TRAYS} trays each, {@code
 * <prefix>-r<rack>-t<tray>}, from which a node's rack can be read back.
 */
public record Nvl72Pool(String prefix) {

    public static final int RACKS = 4;
    public static final int TRAYS = 18;

    /** The name of tray {@code tray} (1 to {@value #TRAYS}) of rack {@code rack} (1 to {@value #RACKS}). */
    public String node(int rack, int tray) {
        return "%s-r%d-t%02d".formatted(prefix, rack, tray);
    }

    /** The rack of a pool node, from its name. */
    public static String rackOf(String node) {
        return node.substring(0, node.indexOf("-t"));
    }

    /** The trays of rack {@code rack}, in order. */
    public List<String> rack(int rack) {
        List<String> out = new ArrayList<>();
        for (int t = 1; t <= TRAYS; t++) {
            out.add(node(rack, t));
        }
        return out;
    }

    /** Every node of the pool, rack by rack. */
    public List<String> nodes() {
        List<String> out = new ArrayList<>();
        for (int r = 1; r <= RACKS; r++) {
            out.addAll(rack(r));
        }
        return out;
    }

    /** A pod {@code taken-<node>} bound by hand to the tray {@code node}, taking its four GPUs: other work. */
    public static Pod takenTray(String node) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("taken-" + node)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("other")
                .withImage("registry.k8s.io/pause:3.10")
                .withNewResources()
                .withRequests(Map.of("nvidia.com/gpu", new Quantity("4"), "cpu", new Quantity("1")))
                .withLimits(Map.of("nvidia.com/gpu", new Quantity("4")))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }
}
