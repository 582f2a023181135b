package io.topobridge.perf.placement;

import io.topobridge.e2e.RealCluster;
import io.topobridge.perf.BenchResults;
import io.topobridge.perf.BenchResults.Figure;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Shape;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** The placement runs' figures: for every run the same names under its prefix, with ratios to the run it is compared with. */
final class PlacementFigures {

    private final BenchResults results;
    private final String load;

    PlacementFigures(BenchResults results, List<Arrival> arrivals, long seed, int gpuNodes) {
        this.results = results;
        this.load = String.format(
                Locale.ROOT,
                "%d gang arrivals of seed %d (%s; lifetimes %d to %d steps) on the example cluster's %d GPU nodes,"
                        + " Volcano %s",
                arrivals.size(),
                seed,
                Gangs.SHAPES.stream()
                        .map(s -> s.name() + " x"
                                + arrivals.stream().filter(a -> a.shape() == s).count())
                        .collect(Collectors.joining(", ")),
                arrivals.stream().mapToInt(Arrival::lifetime).min().orElse(0),
                arrivals.stream().mapToInt(Arrival::lifetime).max().orElse(0),
                gpuNodes,
                RealCluster.schedulerConf().contains("hypernode.binpack.resources: nvidia.com/gpu")
                        ? "bin-packing GPUs across HyperNodes and nodes"
                        : "bin-packing CPU and memory only (its defaults)");
    }

    void record(Map<String, Run> runs) {
        Run hand = runs.get("hand");
        for (Run run : runs.values()) {
            PlacementSystem system = run.system();
            String prefix = system.prefix();
            // the run compared with: absent when it was not chosen, and then no ratio
            Run baseline = system.comparedWith() == null ? null : runs.get(system.comparedWith());
            String than = baseline == null ? null : "the " + describe(baseline.system()) + " run";
            String what = system.what();
            long prefillDecode = run.placed().stream()
                    .filter(p -> p.arrival().shape().prefillDecode())
                    .count();
            put(
                    prefix + "placed",
                    run,
                    Run::placedFraction,
                    "fraction",
                    run.arrivals(),
                    baseline,
                    than,
                    what + ": gangs wholly bound before they left, of " + load + "; placed per shape: "
                            + Gangs.SHAPES.stream()
                                    .map(s -> s.name() + " " + run.placedOf(s.name()))
                                    .collect(Collectors.joining(", ")));
            put(
                    prefix + "mean_tier",
                    run,
                    Run::meanTier,
                    "tier",
                    run.placed().size(),
                    baseline,
                    than,
                    what + ": tier of the lowest HyperNode holding each placed gang (0 = one node, 5 = across"
                            + " spines)");
            put(
                    prefix + "pd_tier",
                    run,
                    Run::pdTier,
                    "tier",
                    (int) prefillDecode,
                    baseline,
                    than,
                    what + ": per prefill pod, the tier of the lowest HyperNode it shares with the nearest decode"
                            + " pod of its gang (0 = same node), mean over placed prefill/decode gangs; by shape: "
                            + Gangs.SHAPES.stream()
                                    .filter(Shape::prefillDecode)
                                    .map(s -> String.format(Locale.ROOT, "%s %.2f", s.name(), run.pdTierOf(s.name())))
                                    .collect(Collectors.joining(", ")));
            put(
                    prefix + "tp_tier",
                    run,
                    Run::tensorParallelTier,
                    "tier",
                    run.placed().size() - (int) prefillDecode,
                    baseline,
                    than,
                    what + ": tier of the lowest HyperNode holding each placed tensor-parallel gang (4 and 9 trays)");
            if (baseline == hand && hand != null && run != hand) {
                sameGangs(prefix, what, run, hand);
            }
            wideEp(prefix, what, run, hand);
            put(
                    prefix + "within_tier",
                    run,
                    Run::withinTier,
                    "fraction",
                    run.hardChecks(),
                    null,
                    null,
                    what
                            + (system.enforcesHardTiers()
                                    ? ": hard tiers (gang and subgroups) it claimed, kept by the placement"
                                    : ": hard tiers the examples choose by hand that the placement kept by chance"));
            put(
                    prefix + "wait_ms",
                    run,
                    Run::medianWaitMillis,
                    "ms",
                    run.placed().size(),
                    baseline,
                    than,
                    what + ": from the gang's creation to its last pod bound (median over placed gangs)");
            put(
                    prefix + "wait_p95_ms",
                    run,
                    Run::p95WaitMillis,
                    "ms",
                    run.placed().size(),
                    baseline,
                    than,
                    what + ": from the gang's creation to its last pod bound (95th percentile over placed gangs)");
        }
    }

    /** The wide-EP gang's racks and cross-rack pairs, per situation, with the ratio to the same figure of {@code hand}. */
    private void wideEp(String prefix, String what, Run run, Run hand) {
        for (int i = 0; i < run.wideEp().size(); i++) {
            WideEp.Outcome o = run.wideEp().get(i);
            if (!o.placed()) {
                PlacementBenchmark.say(
                        "%swide_ep: not placed (%s)", prefix, o.situation().name());
                continue;
            }
            String suffix = o.situation().suffix();
            WideEp.Outcome theirs = hand == null || hand == run || hand.wideEp().size() <= i
                    ? null
                    : hand.wideEp().get(i);
            boolean compare = theirs != null && theirs.placed();
            String note = what + ": one gang of " + WideEp.SHAPE.pods() + " trays on four NVL72 racks of 18 under one"
                    + " leaf, " + o.situation().name() + "; racks spanned "
                    + o.perRack().values() + ", the fewest possible "
                    + o.fewest() + ", bound after " + o.waitMillis() + " ms";
            Figure racks = Figure.of(prefix + "wide_ep_racks" + suffix, o.racks(), null, "racks", 1, note);
            Figure cross = Figure.of(
                    prefix + "wide_ep_cross_pairs" + suffix,
                    o.crossPairs(),
                    null,
                    "fraction",
                    1,
                    note + "; the share of its pod pairs on different racks");
            results.put(compare ? racks.withRatio((double) o.racks() / theirs.racks(), "the hand-chosen run") : racks);
            Double ratio = compare ? ratio(o.crossPairs(), theirs.crossPairs()) : null;
            results.put(ratio == null ? cross : cross.withRatio(ratio, "the hand-chosen run"));
        }
    }

    private static String describe(PlacementSystem system) {
        return switch (system.label()) {
            case "hand" -> "hand-chosen";
            case "unaware" -> "topology-unaware";
            default -> system.label();
        };
    }

    /** The same gangs: a gang the hand-chosen run never started has no tier there to compare with. */
    private void sameGangs(String prefix, String what, Run run, Run hand) {
        for (boolean pd : new boolean[] {false, true}) {
            double ours = run.tierOnGangsAlsoPlacedBy(hand, pd);
            double theirs = hand.tierOnGangsAlsoPlacedBy(run, pd);
            String name = prefix + (pd ? "pd" : "tp") + "_tier_same_gangs";
            if (Double.isNaN(ours)) {
                PlacementBenchmark.say("%s: nothing to measure (no gang of that kind placed)", name);
                continue;
            }
            Figure f = Figure.of(
                    name,
                    ours,
                    null,
                    "tier",
                    run.gangsAlsoPlacedBy(hand, pd),
                    what + ": as " + prefix + (pd ? "pd" : "tp") + "_tier, over the "
                            + (pd ? "prefill/decode" : "tensor-parallel")
                            + " gangs the hand-chosen run placed too; the hand-chosen run's on the same"
                            + String.format(Locale.ROOT, " gangs: %.2f", theirs));
            Double ratio = ratio(ours, theirs);
            results.put(ratio == null ? f : f.withRatio(ratio, "the hand-chosen run on the same gangs"));
        }
    }

    private static Double ratio(double value, double of) {
        return Double.isNaN(value) || Double.isNaN(of) || of == 0 ? null : value / of;
    }

    private void put(
            String name,
            Run run,
            ToDoubleFunction<Run> figure,
            String unit,
            int samples,
            Run baseline,
            String of,
            String note) {
        double value = figure.applyAsDouble(run);
        if (Double.isNaN(value)) {
            PlacementBenchmark.say("%s: nothing to measure (no gang of that kind placed)", name);
            return;
        }
        Figure f = Figure.of(name, value, null, unit, samples, note);
        Double ratio = baseline == null ? null : ratio(value, figure.applyAsDouble(baseline));
        if (ratio != null) {
            f = f.withRatio(ratio, of);
        }
        results.put(f);
    }
}
