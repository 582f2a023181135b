package io.topobridge.core.expand;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The name arithmetic the workload controllers and the API server use: Kubernetes' safe encoding of a hash (the
 * alphabet without vowels), {@code generateName} (a base cut to 58 characters and five random characters), AIBrix's
 * shortening, and the hashes render derives its stand-ins for values a controller picks at random or hashes from a
 * Go struct dump it cannot reproduce.
 */
public final class Names {

    /** The characters of Kubernetes' {@code rand.String} and {@code rand.SafeEncodeString} (no vowels, no 0, 1, 3). */
    static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

    static final String ALPHANUM_CLASS = "[" + ALPHANUMS + "]";

    /** A safe-encoded 32-bit hash: the decimal digits of the hash, each mapped into {@link #ALPHANUMS}. */
    public static final String HASH_PATTERN = ALPHANUM_CLASS + "{1,10}";

    /** The five random characters the API server appends to a {@code generateName}. */
    public static final String SUFFIX_PATTERN = ALPHANUM_CLASS + "{5}";

    /** AIBrix's {@code role-template-hash}: a safe-encoded hash cut (or padded with zeros) to six characters. */
    public static final String SHORT_HASH_PATTERN = "[0" + ALPHANUMS + "]{6}";

    /** The eight hex digits of a DisaggregatedSet revision (a SHA-256 prefix). */
    public static final String HEX8_PATTERN = "[0-9a-f]{8}";

    /** The longest base the API server keeps of a {@code generateName} (63 minus the five random characters). */
    public static final int MAX_GENERATE_NAME_BASE = 58;

    private static final ObjectMapper CANONICAL =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    /** Kubernetes' {@code rand.SafeEncodeString}: every character mapped into {@link #ALPHANUMS}. */
    static String safeEncode(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            out.append(ALPHANUMS.charAt(s.charAt(i) % ALPHANUMS.length()));
        }
        return out.toString();
    }

    /** FNV-1a, 32 bits, of UTF-8 text, as an unsigned value. */
    static long fnv32a(String text) {
        int hash = 0x811c9dc5;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return Integer.toUnsignedLong(hash);
    }

    /** A stand-in for a safe-encoded 32-bit hash of {@code seed} (the shape of {@link #HASH_PATTERN}). */
    public static String hash(String seed) {
        return safeEncode(Long.toString(fnv32a(seed)));
    }

    /** A stand-in for AIBrix's six-character {@code role-template-hash} of {@code seed}. */
    public static String shortHash(String seed) {
        String hash = hash(seed);
        return hash.length() >= 6 ? hash.substring(0, 6) : "000000".substring(hash.length()) + hash;
    }

    /** Five characters of {@link #ALPHANUMS} derived from {@code seed}: a stand-in for the API server's random ones. */
    public static String suffix(String seed) {
        byte[] digest = digest("SHA-256", seed);
        StringBuilder out = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            out.append(ALPHANUMS.charAt((digest[i] & 0xff) % ALPHANUMS.length()));
        }
        return out.toString();
    }

    /** SHA-1 as 40 hex digits (LeaderWorkerSet's group and subgroup keys). */
    public static String sha1(String text) {
        return HexFormat.of().formatHex(digest("SHA-1", text));
    }

    private static byte[] digest(String algorithm, String text) {
        try {
            return MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JVM", e);
        }
    }

    /** A JSON value as text with object keys sorted: the same input always seeds the same stand-in. */
    public static String canonical(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "null";
        }
        try {
            return CANONICAL.writeValueAsString(CANONICAL.treeToValue(node, Object.class));
        } catch (JsonProcessingException e) {
            return node.toString();
        }
    }
}
