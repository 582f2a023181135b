package io.topobridge.perf.placement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every system the placement benchmark knows, by the label {@code bench.placementRuns} names it with, in the order
 * the runs are made: one line per system.
 */
final class Systems {

    /** The systems' factories, in run order; a factory gets the {@code auto-wait} run's wait for room. */
    private static final Map<String, Function<Duration, PlacementSystem>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("hand", wait -> new BridgeRun(BridgeRun.Tiers.HAND, wait));
        ALL.put("auto", wait -> new BridgeRun(BridgeRun.Tiers.AUTO, wait));
        ALL.put("auto-mode", wait -> new BridgeRun(BridgeRun.Tiers.AUTO_MODE, wait));
        ALL.put("auto-wait", wait -> new BridgeRun(BridgeRun.Tiers.AUTO_WAIT, wait));
        ALL.put("unaware", wait -> new UnawareRun());
        if (KueueRun.chosen()) {
            ALL.put("kueue", wait -> new KueueRun());
            ALL.put("kueue-slices", wait -> new KueueRun(true));
        } else {
            System.out.println(
                    "[placement] the kueue runs are left out: topobridge.e2e.kueueTas is not true (verify sets it; -Dtopobridge.e2e.kueueTas=false clears it)");
        }
        if (NativeRun.chosen()) {
            ALL.put("native", wait -> new NativeRun());
        } else {
            System.out.println(
                    "[placement] the native run is left out: topobridge.e2e.nativeTas is not true (verify sets it; -Dtopobridge.e2e.nativeTas=false clears it)");
        }
    }

    private Systems() {}

    /** Every label, in run order. */
    static List<String> labels() {
        return List.copyOf(ALL.keySet());
    }

    /** The runs named by their labels, comma-separated ({@code hand,auto-mode}), in run order; an unknown name is refused. */
    static List<PlacementSystem> parse(String names, Duration autoWait) {
        java.util.Set<String> chosen = new java.util.HashSet<>();
        for (String name : names.split(",")) {
            String n = name.trim();
            if (n.isEmpty()) {
                continue;
            }
            if (!ALL.containsKey(n)) {
                throw new IllegalArgumentException("bench.placementRuns: unknown run '"
                        + (n.length() > 40 ? n.substring(0, 40) + "…" : n) + "', known: "
                        + String.join(",", ALL.keySet()));
            }
            chosen.add(n);
        }
        List<PlacementSystem> out = new ArrayList<>();
        ALL.forEach((label, factory) -> {
            if (chosen.contains(label)) {
                out.add(factory.apply(autoWait));
            }
        });
        return out;
    }
}
