package io.topobridge.testing;

/** Volcano's scheduler and controller configurations, for tests that read or check them. */
public final class VolcanoConfigs {

    /** The tiers of plugins in Volcano v1.15.1's chart configuration, ending in the second tier's plugin list. */
    public static final String CHART_TIERS = """
            tiers:
            - plugins:
              - name: priority
              - name: gang
                enablePreemptable: false
              - name: conformance
            - plugins:
              - name: overcommit
              - name: drf
                enablePreemptable: false
              - name: predicates
              - name: proportion
              - name: nodeorder
              - name: binpack
            """;

    private VolcanoConfigs() {}

    /**
     * The HyperNode controller's configuration (its ConfigMap's {@code volcano-controller.conf}) discovering a
     * topology named {@code type} from {@code nodeLabels}, coarsest first, every 10 minutes.
     */
    public static String labelDiscovery(String type, String... nodeLabels) {
        StringBuilder out = new StringBuilder("""
                networkTopologyDiscovery:
                - source: label
                  enabled: true
                  interval: 10m
                  config:
                    networkTopologyTypes:
                """);
        out.append("      ").append(type).append(":\n");
        for (String label : nodeLabels) {
            out.append("      - nodeLabel: ").append(label).append('\n');
        }
        return out.toString();
    }
}
