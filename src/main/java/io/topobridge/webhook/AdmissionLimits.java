package io.topobridge.webhook;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the webhook port accepts, from {@code topobridge.admission.limits.*}: the size of one request's body, the
 * depth and number of its JSON tokens (checked by a streaming pass before any tree is built), and how much is in
 * flight at once, by count and by bytes (the bodies plus an estimate of the trees built from them). A request over a
 * size or parse limit is answered 413, one beyond what may be in flight 429, each naming the key (each documented in
 * {@code AdmissionConfig.Limits}).
 */
public record AdmissionLimits(
        long maxBodyBytes, int maxJsonDepth, long maxJsonTokens, int maxConcurrentReviews, long maxInFlightBytes) {

    /** Configuration keys, as the answers name them. */
    public static final String PREFIX = "topobridge.admission.limits.";

    public static final String MAX_BODY_SIZE = PREFIX + "max-body-size";
    public static final String MAX_JSON_DEPTH = PREFIX + "max-json-depth";
    public static final String MAX_JSON_TOKENS = PREFIX + "max-json-tokens";
    public static final String MAX_CONCURRENT_REVIEWS = PREFIX + "max-concurrent-reviews";
    public static final String MAX_IN_FLIGHT_BYTES = PREFIX + "max-in-flight-bytes";

    /**
     * Heap a parsed tree takes per JSON token at most: what the parsing thread allocates (the tree and the garbage of
     * growing it) for the costliest shape measured, an object of unique field names (140 bytes per token with Jackson
     * 2.21 on a 64-bit JVM with compressed pointers; a real pod review takes 68), see {@code AdmissionTreeCostTest}.
     */
    public static final long TREE_BYTES_PER_TOKEN = 144;

    /**
     * Longest JSON string or field name: every annotation of an object together is at most 256 KiB, so a longer
     * single string is no Kubernetes object's.
     */
    public static final int MAX_STRING_LENGTH = 512 * 1024;

    private static final Pattern SIZE = Pattern.compile("([0-9]{1,12})(Ki|Mi|Gi)?");

    public AdmissionLimits {
        check(maxBodyBytes >= 64 * 1024 && maxBodyBytes <= 64L << 20, MAX_BODY_SIZE, maxBodyBytes, "64Ki to 64Mi");
        check(maxJsonDepth >= 16 && maxJsonDepth <= 10_000, MAX_JSON_DEPTH, maxJsonDepth, "16 to 10000");
        check(
                maxJsonTokens >= 10_000 && maxJsonTokens <= 100_000_000,
                MAX_JSON_TOKENS,
                maxJsonTokens,
                "10000 to 100000000");
        check(
                maxConcurrentReviews >= 1 && maxConcurrentReviews <= 10_000,
                MAX_CONCURRENT_REVIEWS,
                maxConcurrentReviews,
                "1 to 10000");
        // one review at both limits must fit, or the largest valid reviews would always be refused
        long largest = maxBodyBytes + maxJsonTokens * TREE_BYTES_PER_TOKEN;
        check(
                maxInFlightBytes >= largest && maxInFlightBytes <= 1L << 40,
                MAX_IN_FLIGHT_BYTES,
                maxInFlightBytes,
                "at least max-body-size + " + TREE_BYTES_PER_TOKEN + " bytes x max-json-tokens (" + largest
                        + " bytes with these), so one review at both limits fits");
    }

    /**
     * Parses a size as Kubernetes writes memory: a number of bytes, optionally with {@code Ki}, {@code Mi} or
     * {@code Gi}; throws {@link IllegalArgumentException} naming {@code key}.
     */
    public static long parseSize(String key, String value) {
        Matcher m = SIZE.matcher(value == null ? "" : value.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    key + "=" + value + " is not a size (bytes, or a number with Ki, Mi or Gi, e.g. 3Mi)");
        }
        long number = Long.parseLong(m.group(1));
        int shift = m.group(2) == null
                ? 0
                : switch (m.group(2)) {
                    case "Ki" -> 10;
                    case "Mi" -> 20;
                    default -> 30;
                };
        return number << shift;
    }

    /** A size as the answers and logs print it ({@code 3Mi}, {@code 512Ki} or bytes). */
    public static String formatSize(long bytes) {
        if (bytes > 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "Mi";
        }
        return bytes > 0 && bytes % 1024 == 0 ? (bytes >> 10) + "Ki" : String.format(Locale.ROOT, "%d bytes", bytes);
    }

    private static void check(boolean ok, String key, Object value, String expected) {
        if (!ok) {
            throw new IllegalArgumentException(key + "=" + value + " is not " + expected);
        }
    }
}
