package io.topobridge.core.expand;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A name or value in the expansion that holds characters a controller picks at random or hashes from a Go struct dump
 * (a {@code generateName} suffix, {@code pod-template-hash}, a revision hash): render writes a deterministic stand-in of
 * the same shape. {@link #parts()} tell literal text from generated tokens, so a comparison with what a real controller
 * made can match the literal text exactly and each token by its shape (and the same token to the same value wherever
 * it appears).
 */
public record Generated(String value, List<Part> parts) {

    public Generated {
        parts = List.copyOf(parts);
    }

    /**
     * A piece of a generated value: literal text ({@code pattern} null), or a token render made up, with the regular
     * expression of what the real controller writes there. {@code whole} is false for a token cut by a name limit,
     * which no longer stands for the whole token.
     */
    public record Part(String text, String pattern, boolean whole) {

        public boolean literal() {
            return pattern == null;
        }

        static Part literal(String text) {
            return new Part(text, null, false);
        }

        private static final Pattern COUNTED = Pattern.compile("^(.*)\\{(\\d+)(?:,(\\d+))?}$");

        /** The characters {@code from} to {@code to} of this part (a token cut keeps its class, any length up to its own). */
        Part slice(int from, int to) {
            String cut = text.substring(from, to);
            if (literal() || (from == 0 && to == text.length())) {
                return new Part(cut, pattern, whole);
            }
            Matcher m = COUNTED.matcher(pattern);
            String loose = m.matches()
                    ? m.group(1) + "{0," + (m.group(3) != null ? m.group(3) : m.group(2)) + "}"
                    : "(?:" + pattern + ")?";
            return new Part(cut, loose, false);
        }
    }
}
