package io.topobridge.core.topology;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Deterministic HyperNode names: the tier name and the label value, sanitised to a DNS label, plus a short hash
 * of the domain's full label path when the readable part alone does not identify it (the value was changed
 * by sanitising, the domain has parents, or the name is taken). Every name is also a valid {@code exactMatch}
 * member name: Volcano checks members as Kubernetes qualified names, which caps them at 63 characters.
 */
public final class HyperNodeNames {

    /** Longest name a HyperNode can have and still be named as a member of its parent. */
    public static final int MAX_LENGTH = 63;

    static final int SHORT_HASH = 8;
    static final int LONG_HASH = 16;

    /** Whether a name can be an {@code exactMatch} member: Volcano's pattern is a DNS subdomain. */
    public static boolean matchable(String name) {
        return name != null && name.length() <= MAX_LENGTH && dnsSubdomain(name);
    }

    /** Whether the text is a DNS label (its length aside): a {@link #dnsSubdomain} of one label. */
    public static boolean dnsLabel(String text) {
        return text.indexOf('.') < 0 && dnsSubdomain(text);
    }

    /**
     * Whether the text is a lower-case DNS subdomain (its length aside): labels of letters, digits and '-' joined by
     * '.', each starting and ending with a letter or digit. Written out: a regular expression took an eighth of the
     * topology build's time.
     */
    public static boolean dnsSubdomain(String text) {
        char previous = '.';
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean alphanumeric = c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
            if (!alphanumeric && (c != '-' && c != '.' || previous == '.' || c == '.' && previous == '-')) {
                return false;
            }
            previous = c;
        }
        return previous != '-' && previous != '.';
    }

    /** Gives every domain its deterministic name; a clash (or a name another source holds) gets the longer hash. */
    static void assign(List<Domain> domains, Set<String> taken) {
        Map<String, List<Domain>> byName = new HashMap<>();
        for (Domain d : domains) {
            String readable = readable(d.tierName(), d.kv.value());
            boolean plain = d.parent == null && lossless(d.tierName(), d.kv.value());
            d.name = plain ? readable : withHash(readable, d.identity, SHORT_HASH);
            byName.computeIfAbsent(d.name, k -> new ArrayList<>()).add(d);
        }
        List<Domain> clashing = byName.values().stream()
                .filter(same -> same.size() > 1 || taken.contains(same.get(0).name))
                .flatMap(List::stream)
                .collect(Collectors.toCollection(ArrayList::new));
        int attempt = 0;
        while (!clashing.isEmpty()) {
            clashing.sort(Comparator.comparing(d -> d.identity));
            for (Domain d : clashing) {
                byName.get(d.name).remove(d);
                String readable = readable(d.tierName(), d.kv.value());
                String identity = attempt == 0 ? d.identity : d.identity + "\u0000" + attempt;
                d.name = withHash(readable, identity, LONG_HASH);
                byName.computeIfAbsent(d.name, k -> new ArrayList<>()).add(d);
            }
            clashing = clashing.stream()
                    .filter(d -> byName.get(d.name).size() > 1 || taken.contains(d.name))
                    .collect(Collectors.toCollection(ArrayList::new));
            attempt++;
        }
    }

    /** The readable part: {@code tier-value}, or the value alone when it already starts with the tier name. */
    static String readable(String tierName, String value) {
        String clean = sanitise(value);
        if (clean.isEmpty()) {
            return tierName;
        }
        return clean.equals(tierName) || clean.startsWith(tierName + "-") ? clean : tierName + "-" + clean;
    }

    /** Whether {@link #readable} kept the value as it is (no character changed, nothing cut). */
    static boolean lossless(String tierName, String value) {
        String name = readable(tierName, value);
        return name.length() <= MAX_LENGTH && sanitise(value).equals(value);
    }

    /** {@code readable-hash}, cut so the whole name fits. */
    static String withHash(String readable, String identity, int hashLength) {
        String hash = hash(identity, hashLength);
        int room = MAX_LENGTH - hashLength - 1;
        String head = readable.length() > room ? trimEnd(readable.substring(0, room)) : readable;
        return head.isEmpty() ? hash : head + "-" + hash;
    }

    /** Lower-case letters, digits and single dashes; every other character becomes a dash. */
    static String sanitise(String value) {
        StringBuilder out = new StringBuilder(value.length());
        boolean dash = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                c = (char) (c + ('a' - 'A'));
            }
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                out.append(c);
                dash = false;
            } else if (!dash && out.length() > 0) {
                out.append('-');
                dash = true;
            }
        }
        return trimEnd(out.toString());
    }

    private static String trimEnd(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '-') {
            end--;
        }
        return s.substring(0, end);
    }

    /** Lower-case hex of the SHA-256 of the identity, {@code length} characters. */
    public static String hash(String identity, int length) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, (length + 1) / 2).substring(0, length);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
