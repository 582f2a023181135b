package io.topobridge.core.workload.annotation;

import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.LabelSchemes;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologySettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * How users name a tier in the bridge's keys: a number within {@code 1..top}, or a tier name the catalog resolves; and
 * what to answer when neither fits, naming the tiers there are and the node labels that would make the one asked for.
 */
final class TierNames {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern DECIMAL =
            Pattern.compile("[+-]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?[0-9]+[eE][+-]?[0-9]+");

    /** A tier number or tier name, resolved to a number within {@code 1..top}. */
    static Result<Integer> tier(String raw, TierCatalog tiers) {
        String value = raw.trim();
        if (value.isEmpty()) {
            return Result.error("empty value; write a tier number or a tier name (" + known(tiers) + ")");
        }
        Long number = integer(value);
        if (number != null) {
            if (number < 1) {
                return Result.error("tier numbers start at 1 (1 is the domain closest to the nodes)");
            }
            if (tiers.isEmpty()) {
                return Result.tiersUnknown("no tiers are known yet: no node carries the configured topology labels");
            }
            if (number > tiers.top()) {
                return Result.error(
                        "tier " + number + " is above the top tier " + tiers.top() + " (" + known(tiers) + ")");
            }
            return Result.ok(number.intValue());
        }
        if (DECIMAL.matcher(value).matches()) {
            return Result.error("not a whole number; write a tier number or a tier name (" + known(tiers) + ")");
        }
        Set<Integer> numbers = tiers.numbers(value);
        if (numbers.isEmpty() && !value.equals(value.toLowerCase(Locale.ROOT))) {
            numbers = tiers.numbers(value.toLowerCase(Locale.ROOT));
        }
        if (numbers.size() == 1) {
            return Result.ok(numbers.iterator().next());
        }
        if (numbers.size() > 1) {
            var list = new StringJoiner(", ");
            numbers.forEach(n -> list.add(String.valueOf(n)));
            return Result.error("tier name " + UserText.quote(value)
                    + " is ambiguous: the label schemes in this cluster give it the numbers " + list
                    + "; write the number instead");
        }
        if (tiers.isEmpty()) {
            return Result.tiersUnknown(
                    "unknown tier name: no tiers are known yet (no node carries the configured topology labels)");
        }
        return Result.error("unknown tier name; known " + known(tiers) + making(value.toLowerCase(Locale.ROOT), tiers));
    }

    /** A whole number as written ({@code [+-]digits}), {@link Long#MAX_VALUE} when beyond a long; null when none. */
    static Long integer(String value) {
        if (!INTEGER.matcher(value).matches()) {
            return null;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Which node labels would give the cluster a tier of this name: those of the configured label schemes, else those
     * of the built-in ones (another preset), else how to name one.
     */
    static String making(String name, TierCatalog tiers) {
        String tier = UserText.identifier(name);
        List<String> labels = tiers.labelsMaking(name);
        if (!labels.isEmpty()) {
            return "; nodes get a " + tier + " tier from the labels " + String.join(", ", labels);
        }
        labels = LabelSchemes.labelsMaking(
                LabelSchemes.preset(TopologySettings.AUTO).orElseThrow(), name);
        if (!labels.isEmpty()) {
            return "; the configured label schemes have no " + tier + " tier; with preset auto, nodes get one from the"
                    + " labels " + String.join(", ", labels);
        }
        return "; no built-in label scheme has a " + tier + " tier: name a node label as one with"
                + " topobridge.topology.tiers (<label key>=" + tier + ")";
    }

    /** {@code 1=nvlink, 2=rack, 3} — the tiers a user may write. */
    static String known(TierCatalog tiers) {
        if (tiers.isEmpty()) {
            return "no tiers are known";
        }
        Map<Integer, List<String>> names = new LinkedHashMap<>();
        for (int n = 1; n <= tiers.top(); n++) {
            names.put(n, new ArrayList<>());
        }
        for (String name : tiers.names()) {
            for (int n : tiers.numbers(name)) {
                names.computeIfAbsent(n, k -> new ArrayList<>()).add(name);
            }
        }
        var out = new StringJoiner(", ");
        names.forEach((n, list) -> out.add(list.isEmpty() ? String.valueOf(n) : n + "=" + String.join("|", list)));
        return "tiers " + out;
    }
}
