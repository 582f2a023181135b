package io.topobridge.perf.placement;

import io.topobridge.perf.placement.Gangs.Arrival;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The outcome of one run: the gangs placed, each with where it was placed, and the wide-EP gang's outcomes (maybe none). */
record Run(PlacementSystem system, int arrivals, List<Run.Placed> placed, long millis, List<WideEp.Outcome> wideEp) {

    /** Where one gang was placed: its tiers, and whether it kept within the hard tiers it claimed. */
    record Placed(Arrival arrival, long waitMillis, int tier, double pdTier, int hardChecks, int hardKept) {}

    double placedFraction() {
        return arrivals == 0 ? 0 : (double) placed.size() / arrivals;
    }

    double meanTier() {
        return placed.stream().mapToInt(Placed::tier).average().orElse(Double.NaN);
    }

    double tensorParallelTier() {
        return placed.stream()
                .filter(p -> !p.arrival().shape().prefillDecode())
                .mapToInt(Placed::tier)
                .average()
                .orElse(Double.NaN);
    }

    double pdTier() {
        return placed.stream()
                .filter(p -> p.arrival().shape().prefillDecode())
                .mapToDouble(Placed::pdTier)
                .average()
                .orElse(Double.NaN);
    }

    double withinTier() {
        int checks = hardChecks();
        int kept = placed.stream().mapToInt(Placed::hardKept).sum();
        return checks == 0 ? Double.NaN : (double) kept / checks;
    }

    int hardChecks() {
        return placed.stream().mapToInt(Placed::hardChecks).sum();
    }

    double medianWaitMillis() {
        double[] waits =
                placed.stream().mapToDouble(Placed::waitMillis).sorted().toArray();
        return waits.length == 0 ? Double.NaN : waits[waits.length / 2];
    }

    /** The 95th percentile of the waits (nearest rank), NaN when nothing was placed. */
    double p95WaitMillis() {
        double[] waits =
                placed.stream().mapToDouble(Placed::waitMillis).sorted().toArray();
        return waits.length == 0 ? Double.NaN : waits[(int) Math.ceil(0.95 * waits.length) - 1];
    }

    /** The mean tier over the placed gangs that {@code other} placed too, of the kind asked for. */
    double tierOnGangsAlsoPlacedBy(Run other, boolean prefillDecode) {
        return sameGangs(other, prefillDecode)
                .mapToDouble(p -> prefillDecode ? p.pdTier() : p.tier())
                .average()
                .orElse(Double.NaN);
    }

    int gangsAlsoPlacedBy(Run other, boolean prefillDecode) {
        return (int) sameGangs(other, prefillDecode).count();
    }

    private Stream<Placed> sameGangs(Run other, boolean prefillDecode) {
        Set<Integer> theirs =
                other.placed().stream().map(p -> p.arrival().index()).collect(Collectors.toSet());
        return placed.stream()
                .filter(p -> p.arrival().shape().prefillDecode() == prefillDecode)
                .filter(p -> theirs.contains(p.arrival().index()));
    }

    long placedOf(String shape) {
        return placed.stream()
                .filter(p -> p.arrival().shape().name().equals(shape))
                .count();
    }

    /** The P/D tier over the placed gangs of one prefill/decode shape. */
    double pdTierOf(String shape) {
        return placed.stream()
                .filter(p -> p.arrival().shape().name().equals(shape))
                .mapToDouble(Placed::pdTier)
                .average()
                .orElse(Double.NaN);
    }
}
