package io.topobridge.core.finding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * At most {@code max} findings on one object: the most severe first (then by reason and key, so the same findings
 * are kept whatever order they came in), and one {@link FindingReason#TOO_MANY_FINDINGS} finding that counts the
 * others by reason. Its identity is fixed (object, reason, empty key), and its message changes only when the
 * counts do.
 */
public final class FindingLimit {

    /** Which findings are kept first: rejections, then warnings, then infos; then by reason and key. */
    static final Comparator<Finding> PRIORITY = Comparator.comparing(
                    (Finding f) -> f.severity(), Comparator.reverseOrder())
            .thenComparing(f -> f.reason().reason())
            .thenComparing(Finding::key);

    /** The findings kept and how many were left out (counted by the summary among them). */
    public record Limited(List<Finding> kept, int dropped) {}

    /** Limits the findings of {@code object}, more than {@code max} (at least 2), to {@code max}, summary included. */
    public static Limited of(ObjectRef object, Collection<Finding> findings, int max) {
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(PRIORITY);
        List<Finding> kept = new ArrayList<>(sorted.subList(0, max - 1));
        List<Finding> rest = sorted.subList(max - 1, sorted.size());
        Map<String, Integer> byReason = new TreeMap<>();
        Severity worst = Severity.INFO;
        for (Finding f : rest) {
            byReason.merge(f.reason().reason(), 1, Integer::sum);
            worst = f.severity().compareTo(worst) > 0 ? f.severity() : worst;
        }
        var counts = new StringJoiner(", ");
        byReason.forEach((reason, n) -> counts.add(n + " " + reason));
        kept.add(new Finding(
                worst,
                FindingReason.TOO_MANY_FINDINGS,
                object,
                "",
                object + ": " + rest.size() + " more findings on this object are not listed (at most " + max
                        + " are kept per object): " + counts));
        return new Limited(List.copyOf(kept), rest.size());
    }
}
