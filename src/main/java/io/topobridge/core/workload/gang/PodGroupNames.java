package io.topobridge.core.workload.gang;

import io.topobridge.core.topology.HyperNodeNames;
import java.util.Locale;

/**
 * Names of the PodGroups the bridge owns and of the labels it adds to pods. Every name starts with
 * {@code tb-} and a kind tag, so it never equals one AIBrix ({@code <roleset>}, {@code <podset>}), LWS
 * ({@code <lws>-<group>-<revision>}) or Volcano's pg-controller ({@code podgroup-<uid>}) makes; it is a
 * valid DNS-1123 label (at most 63 characters, so it also fits in label values), computed from the
 * workload's name alone (a pod is often created before its PodGroup) and stable while the workload lives.
 * A name that had to be changed or shortened carries a hash of the original to stay unique, and so does a name
 * that merely looks like one (ends with a dash and eight hex digits): a name kept as written never equals a
 * changed one, and two changed ones are equal only if their originals' SHA-256 digests share 32 bits.
 */
public final class PodGroupNames {

    public static final int MAX = 63;

    public static String deployment(String name) {
        return labelValue("tb-deploy-" + name);
    }

    public static String statefulSet(String name) {
        return labelValue("tb-sts-" + name);
    }

    public static String group(String group) {
        return labelValue("tb-group-" + group);
    }

    public static String leaderWorkerSet(String name, int groupIndex) {
        return bounded("tb-lws-" + name, "-" + groupIndex);
    }

    /**
     * The PodGroup of one group of a LeaderWorkerSet with {@code groupIdentity: Hash}, named after the LWS and the group
     * key its pods carry ({@code leaderworkerset.sigs.k8s.io/group-key}, 40 lowercase hex digits as LWS makes it): a key
     * of up to 40 lowercase letters and digits is kept whole as the suffix; any other (a key set by hand in a pod
     * template, which LWS keeps) becomes {@code --} and 8 hex digits of its SHA-256, a suffix no kept key can end in.
     * The tag {@code tb-lwsh-} keeps these apart from the group-index names ({@code tb-lws-}), whatever the LWS names.
     */
    public static String leaderWorkerSetGroup(String name, String groupKey) {
        String suffix = KEPT_KEY.matcher(groupKey).matches() ? "-" + groupKey : "--" + HyperNodeNames.hash(groupKey, 8);
        return bounded("tb-lwsh-" + name, suffix);
    }

    /** A group key kept whole in a PodGroup name: LWS's own keys (40 hex digits) and any shorter plain one. */
    private static final java.util.regex.Pattern KEPT_KEY = java.util.regex.Pattern.compile("[a-z0-9]{1,40}");

    public static String disaggregatedSet(String name, int slice) {
        return bounded("tb-ds-" + name, "-" + slice);
    }

    public static String roleSet(String name) {
        return labelValue("tb-rs-" + name);
    }

    public static String podSet(String name) {
        return labelValue("tb-ps-" + name);
    }

    /**
     * A DNS-1123 label for {@code base + suffix}: lowercased, other characters replaced by {@code -}, and
     * when anything changed or it is too long, the base cut and an 8-hex hash of the original appended
     * before the suffix (which is kept whole, so a group index stays readable).
     */
    public static String bounded(String base, String suffix) {
        String original = base + suffix;
        // a DNS label is what sanitize leaves as it is: most names, which then need no copy
        if ((base.isEmpty() || HyperNodeNames.dnsLabel(base)) && original.length() <= MAX && !endsHashed(base)) {
            return original;
        }
        String clean = sanitize(base);
        String hash = "-" + HyperNodeNames.hash(original, 8);
        int room = MAX - hash.length() - suffix.length();
        String cut = clean.length() > room ? clean.substring(0, room) : clean;
        cut = trimDashes(cut);
        return cut + hash + suffix;
    }

    /**
     * Whether the name ends as a changed or shortened name does before its suffix: a dash and eight hex digits. A name
     * that already ends so is hashed too, so no name kept as written equals one that was changed ({@code web.prod} and
     * {@code web-prod-be32c89f} once both became {@code tb-deploy-web-prod-be32c89f}).
     */
    private static boolean endsHashed(String name) {
        int dash = name.length() - 9;
        boolean hashed = dash >= 0 && name.charAt(dash) == '-';
        for (int i = dash + 1; hashed && i < name.length(); i++) {
            char c = name.charAt(i);
            hashed = c >= '0' && c <= '9' || c >= 'a' && c <= 'f';
        }
        return hashed;
    }

    /** A label value (at most 63 characters, alphanumeric at both ends) for an arbitrary string. */
    public static String labelValue(String raw) {
        return bounded(raw, "");
    }

    private static String sanitize(String raw) {
        var out = new StringBuilder(raw.length());
        for (char c : raw.toLowerCase(Locale.ROOT).toCharArray()) {
            out.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ? c : '-');
        }
        return trimDashes(out.toString());
    }

    private static String trimDashes(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && s.charAt(start) == '-') {
            start++;
        }
        while (end > start && s.charAt(end - 1) == '-') {
            end--;
        }
        return s.substring(start, end);
    }
}
