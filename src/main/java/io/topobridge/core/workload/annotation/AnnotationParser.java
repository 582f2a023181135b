package io.topobridge.core.workload.annotation;

import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.recovery.DomainLossPolicy;
import io.topobridge.core.topology.HyperNodeNames;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.WorkloadReason;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * The one parser of the annotation contract, shared by the reconciler, the admission webhook and
 * {@code render}. It reads every source (workload metadata, pod templates, group members), validates each
 * value, resolves tier names through the tier catalog, and rejects a setting that two sources disagree on.
 * Every message names the object, the key and the value.
 */
public final class AnnotationParser {

    /** Annotation keys of the contract, for the unknown-key check. */
    public static final Set<String> KNOWN_KEYS = Set.of(
            Topobridge.HIGHEST_TIER,
            Topobridge.MODE,
            Topobridge.SUBGROUP_HIGHEST_TIER,
            Topobridge.SUBGROUP_MODE,
            Topobridge.GROUP,
            Topobridge.QUEUE,
            Topobridge.MIN_MEMBER,
            Topobridge.ON_DOMAIN_LOSS,
            Topobridge.DOMAIN_LOSS_GRACE);

    /** The shortest {@code topobridge.io/domain-loss-grace}: a node that blinks is not a domain lost. */
    public static final java.time.Duration MIN_DOMAIN_LOSS_GRACE = java.time.Duration.ofSeconds(1);

    public static final java.time.Duration MAX_DOMAIN_LOSS_GRACE = java.time.Duration.ofHours(24);

    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9}(h|m|s))+");
    private static final Pattern DURATION_PART = Pattern.compile("([0-9]{1,9})(h|m|s)");

    private static final Set<String> VOLCANO_KEYS = Set.of(
            VolcanoApi.NETWORK_TOPOLOGY_TIER_ANNOTATION,
            VolcanoApi.NETWORK_TOPOLOGY_MODE_ANNOTATION,
            VolcanoApi.QUEUE_NAME_ANNOTATION);

    /** A tier as written: a number, or {@code auto} (the bridge chooses it, see {@code AutoTier}). */
    private record TierValue(Integer number, boolean auto) {
        static final TierValue AUTO = new TierValue(null, true);
    }

    /** The value users write to have the bridge choose the tier. */
    public static final String AUTO = "auto";

    private record Occurrence(AnnotationSource source, String key, String raw) {
        String describe(ObjectRef subject) {
            String where = source.object().equals(subject)
                    ? UserText.excerpt(source.where())
                    : UserText.excerpt(source.where()) + " of " + source.object();
            return key + "=" + UserText.quote(raw) + " (" + where + ")";
        }

        /** {@code object: key="value" (where): why}, said on the object the value was written on. */
        String message(String why) {
            return source.object() + ": " + describe(source.object()) + ": " + why;
        }
    }

    /** The sources of one managed gang that carry a key a setting is read from, and what is wrong with them. */
    private final List<AnnotationSource> sources;

    private final List<Finding> findings;

    private AnnotationParser(List<AnnotationSource> sources, List<Finding> findings) {
        this.sources = sources;
        this.findings = findings;
    }

    /** True when any source carries a {@code topobridge.io/} key: the workload is managed by the bridge. */
    public static boolean managed(List<AnnotationSource> sources) {
        for (AnnotationSource source : sources) {
            for (String key : source.annotations().keySet()) {
                if (key.startsWith(Topobridge.PREFIX)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The annotations the parser reads (its own keys, Volcano's and other schedulers'), the others left out. */
    public static Map<String, String> relevant(Map<String, String> annotations) {
        Map<String, String> out = new java.util.TreeMap<>();
        annotations.forEach((key, value) -> {
            if (read(key)) {
                out.put(key, value);
            }
        });
        return out;
    }

    /** Whether a setting is read from a key: the bridge's, Volcano's, another scheduler's. */
    private static boolean read(String key) {
        return key.startsWith(Topobridge.PREFIX) || VOLCANO_KEYS.contains(key) || Dialects.isForeign(key);
    }

    public static boolean validGroup(String value) {
        return value != null && value.length() <= 63 && HyperNodeNames.dnsLabel(value);
    }

    /**
     * Parses and validates the intent of one gang from all its sources. Findings are attached to the object
     * whose annotation is at fault; an unmanaged gang (no {@code topobridge.io/} key) parses to
     * {@link GangIntent#UNMANAGED} with no findings.
     */
    public static ParsedIntent parse(List<AnnotationSource> given, TierCatalog tiers) {
        boolean ours = managed(given);
        if (!ours && !Dialects.present(given)) {
            return new ParsedIntent(GangIntent.UNMANAGED, List.of());
        }
        List<Finding> findings = new ArrayList<>();
        List<AnnotationSource> sources = Dialects.readable(given, findings);
        if (!ours && !Dialects.present(sources)) {
            return new ParsedIntent(GangIntent.UNMANAGED, findings);
        }
        // each setting looks its keys up in every source: a source that carries none (most pod templates) is
        // left out once here rather than asked for each key of each setting
        List<AnnotationSource> carrying = new ArrayList<>(sources.size());
        for (AnnotationSource source : sources) {
            for (String key : source.annotations().keySet()) {
                if (read(key)) {
                    carrying.add(source);
                    break;
                }
            }
        }
        var parser = new AnnotationParser(carrying, findings);
        parser.unknownKeys();
        Dialects.incompleteSlices(sources, findings);
        return new ParsedIntent(parser.intent(tiers), findings);
    }

    private static final List<String> TIER_KEYS = withForeign(
            Dialects.Setting.GANG_TIER, Topobridge.HIGHEST_TIER, VolcanoApi.NETWORK_TOPOLOGY_TIER_ANNOTATION);
    private static final List<String> MODE_KEYS =
            withForeign(Dialects.Setting.GANG_TIER, Topobridge.MODE, VolcanoApi.NETWORK_TOPOLOGY_MODE_ANNOTATION);
    private static final List<String> SUBGROUP_TIER_KEYS =
            withForeign(Dialects.Setting.SUBGROUP_TIER, Topobridge.SUBGROUP_HIGHEST_TIER);
    private static final List<String> SUBGROUP_MODE_KEYS =
            withForeign(Dialects.Setting.SUBGROUP_TIER, Topobridge.SUBGROUP_MODE);

    /** The intent of a managed gang's sources, every setting resolved once; what is wrong goes to the findings. */
    private GangIntent intent(TierCatalog tiers) {
        BiFunction<String, String, Result<TierValue>> tier = (key, raw) -> tier(key, raw, tiers);
        Resolved<TierValue> gangTier = resolve("highest tier", TIER_KEYS, true, tier);
        Resolved<TopologyMode> mode = resolve("topology mode", MODE_KEYS, true, AnnotationParser::modeOf);
        Resolved<TierValue> subTier = resolve("subgroup highest tier", SUBGROUP_TIER_KEYS, true, tier);
        Resolved<TopologyMode> subMode =
                resolve("subgroup topology mode", SUBGROUP_MODE_KEYS, true, AnnotationParser::modeOf);
        Resolved<String> group = resolve("group", List.of(Topobridge.GROUP), true, (k, v) -> group(v));
        Resolved<String> queue =
                resolve("queue", List.of(Topobridge.QUEUE, VolcanoApi.QUEUE_NAME_ANNOTATION), true, (k, v) -> queue(v));
        Resolved<Integer> minMember =
                resolve("minimum member count", List.of(Topobridge.MIN_MEMBER), true, (k, v) -> minMember(v));
        // what happens when the domain is lost: a bad value leaves the default (wait), the gang is still made
        Resolved<DomainLossPolicy> onDomainLoss =
                resolve("domain-loss policy", List.of(Topobridge.ON_DOMAIN_LOSS), false, (k, v) -> onDomainLoss(v));
        Resolved<java.time.Duration> grace = resolve(
                "domain-loss grace", List.of(Topobridge.DOMAIN_LOSS_GRACE), false, (k, v) -> domainLossGrace(v));
        Resolved<Integer> sliceSize = resolve(
                "slice size", Dialects.keys(Dialects.Setting.SLICE_SIZE), true, (k, v) -> Dialects.sliceSize(v));
        Resolved<String> podIndexLabel = resolve(
                "pod index label",
                Dialects.keys(Dialects.Setting.POD_INDEX_LABEL),
                true,
                (k, v) -> Dialects.podIndexLabel(v));
        hardNeedsATier(mode, gangTier, "a highest tier", Topobridge.HIGHEST_TIER, Topobridge.MODE);
        hardNeedsATier(
                subMode,
                subTier,
                "a subgroup highest tier",
                Topobridge.SUBGROUP_HIGHEST_TIER,
                Topobridge.SUBGROUP_MODE);
        subgroupTierWithinTheGangs(gangTier, subTier);
        return new GangIntent(
                true,
                number(gangTier),
                mode.value(),
                number(subTier),
                subMode.value(),
                group.value(),
                queue.value(),
                minMember.value(),
                gangTier.value() != null && gangTier.value().auto(),
                subTier.value() != null && subTier.value().auto(),
                onDomainLoss.value(),
                grace.value(),
                sliceSize.value(),
                podIndexLabel.value());
    }

    /** The tier number agreed on, or null (none, {@code auto}, or refused). */
    private static Integer number(Resolved<TierValue> tier) {
        return tier.value() == null ? null : tier.value().number();
    }

    /** Hard mode without a tier (none given, none refused): Volcano would enforce nothing. */
    private void hardNeedsATier(
            Resolved<TopologyMode> mode, Resolved<TierValue> tier, String needs, String tierKey, String modeKey) {
        if (mode.value() != TopologyMode.HARD || tier.value() != null || !tier.valid()) {
            return;
        }
        Occurrence at = mode.first();
        findings.add(Finding.rejected(
                        WorkloadReason.INVALID_ANNOTATION,
                        at.source().object(),
                        at.message("hard mode needs " + needs + " (set " + tierKey
                                + "); without one Volcano enforces nothing"))
                .withKey(modeKey));
    }

    /** A subgroup tier above the gang's own: subgroups are placed inside the gang's HyperNode. */
    private void subgroupTierWithinTheGangs(Resolved<TierValue> gangTier, Resolved<TierValue> subTier) {
        Integer gang = number(gangTier);
        Integer sub = number(subTier);
        if (gang != null && sub != null && sub > gang) {
            Occurrence at = subTier.first();
            findings.add(Finding.rejected(
                            WorkloadReason.INVALID_ANNOTATION,
                            at.source().object(),
                            at.message("subgroup tier " + sub + " is above the gang's highest tier " + gang + " ("
                                    + gangTier.first().describe(at.source().object())
                                    + "); subgroups are placed inside the gang's HyperNode"))
                    .withKey(Topobridge.SUBGROUP_HIGHEST_TIER));
        }
    }

    /** The agreed value of one setting ({@code valid} false when some occurrence was refused). */
    private record Resolved<T>(T value, boolean valid, Occurrence first) {}

    /**
     * The agreed value of one setting, read from its keys (in precedence order for messages) in every source;
     * {@code rejects}: whether a bad value refuses the gang (else it is a warning and the setting's default holds).
     */
    private <T> Resolved<T> resolve(
            String label, List<String> keys, boolean rejects, BiFunction<String, String, Result<T>> parser) {
        Map<T, List<Occurrence>> byValue = new LinkedHashMap<>();
        boolean valid = true;
        for (AnnotationSource source : sources) {
            for (String key : keys) {
                String raw = source.annotations().get(key);
                if (raw == null) {
                    continue;
                }
                var occurrence = new Occurrence(source, key, raw);
                Result<T> result = parser.apply(key, raw);
                if (result.error() != null) {
                    valid = false;
                    ObjectRef object = source.object();
                    String message = occurrence.message(result.error());
                    // the finding's key tells this value apart from other keys and sources on the same object
                    findings.add((rejects
                                    ? Finding.rejected(result.reason(), object, message)
                                    : Finding.warning(result.reason(), object, message))
                            .withKey(key + " (" + source.where() + ")"));
                } else {
                    byValue.computeIfAbsent(result.value(), k -> new ArrayList<>())
                            .add(occurrence);
                }
            }
        }
        if (byValue.size() > 1) {
            Set<ObjectRef> involved = new LinkedHashSet<>();
            byValue.values()
                    .forEach(list -> list.forEach(o -> involved.add(o.source().object())));
            for (ObjectRef object : involved) {
                var joined = new StringJoiner(" vs ");
                byValue.values().forEach(list -> joined.add(list.get(0).describe(object)));
                String message = object + ": conflicting values for the " + label + ": " + joined;
                findings.add((rejects
                                ? Finding.rejected(WorkloadReason.CONFLICTING_ANNOTATIONS, object, message)
                                : Finding.warning(
                                        WorkloadReason.CONFLICTING_ANNOTATIONS,
                                        object,
                                        message + "; the default holds"))
                        .withKey(keys.get(0)));
            }
            return new Resolved<>(
                    null, false, byValue.values().iterator().next().get(0));
        }
        if (byValue.isEmpty()) {
            return new Resolved<>(null, valid, null);
        }
        var entry = byValue.entrySet().iterator().next();
        return new Resolved<>(
                valid ? entry.getKey() : null, valid, entry.getValue().get(0));
    }

    /** Unknown keys an object's one {@code UnknownAnnotation} finding names; the others are counted. */
    static final int UNKNOWN_KEYS_SHOWN = 3;

    /**
     * One {@code UnknownAnnotation} finding per object however many unknown {@code topobridge.io/} keys it carries
     * (its identity has an empty key, so it stays the same one as keys come and go): it names the first
     * {@value #UNKNOWN_KEYS_SHOWN} in key order and counts the others. Only those few become text; the others are
     * counted, so a workload with 100,000 annotations costs no more than reading them.
     */
    private void unknownKeys() {
        Map<ObjectRef, Set<String>> distinct = new LinkedHashMap<>();
        Map<ObjectRef, TreeMap<String, Occurrence>> shown = new LinkedHashMap<>();
        for (AnnotationSource source : sources) {
            for (Map.Entry<String, String> annotation : source.annotations().entrySet()) {
                String key = annotation.getKey();
                if (!key.startsWith(Topobridge.PREFIX) || KNOWN_KEYS.contains(key)) {
                    continue;
                }
                if (!distinct.computeIfAbsent(source.object(), o -> new HashSet<>())
                        .add(key)) {
                    continue; // the same key in another source of the same object: named where first seen
                }
                TreeMap<String, Occurrence> first = shown.computeIfAbsent(source.object(), o -> new TreeMap<>());
                if (first.size() < UNKNOWN_KEYS_SHOWN || key.compareTo(first.lastKey()) < 0) {
                    first.put(key, new Occurrence(source, key, annotation.getValue()));
                    if (first.size() > UNKNOWN_KEYS_SHOWN) {
                        first.pollLastEntry();
                    }
                }
            }
        }
        distinct.forEach((object, keys) -> {
            var named = new StringJoiner(", ");
            shown.get(object)
                    .values()
                    .forEach(o -> named.add(UserText.identifier(o.key()) + "=" + UserText.quote(o.raw()) + " ("
                            + UserText.excerpt(o.source().where()) + ")"));
            int more = keys.size() - shown.get(object).size();
            String message = keys.size() == 1
                    ? object + ": unknown annotation " + named + " is ignored"
                    : object + ": " + keys.size() + " unknown " + Topobridge.PREFIX + " annotations are ignored: "
                            + named + (more > 0 ? " and " + more + " more" : "");
            findings.add(Finding.warning(
                    WorkloadReason.UNKNOWN_ANNOTATION,
                    object,
                    message + "; known keys: " + String.join(", ", new TreeSet<>(KNOWN_KEYS))));
        });
    }

    /** The bridge's keys of a setting followed by the other schedulers' keys that give it. */
    private static List<String> withForeign(Dialects.Setting setting, String... own) {
        List<String> out = new ArrayList<>(List.of(own));
        out.addAll(Dialects.keys(setting));
        return List.copyOf(out);
    }

    /**
     * A tier as the bridge's keys write it ({@code auto}, or a tier number or name resolved as {@link TierNames#tier}),
     * or as another scheduler's: a node label key.
     */
    private static Result<TierValue> tier(String key, String raw, TierCatalog tiers) {
        if (Dialects.isForeign(key)) {
            return Dialects.tier(raw, tiers).map(n -> new TierValue(n, false));
        }
        if (AUTO.equals(raw.trim().toLowerCase(Locale.ROOT))) {
            return tiers.isEmpty()
                    ? Result.tiersUnknown(
                            "the tier is chosen from the topology, and no tiers are known yet (no node carries"
                                    + " the configured topology labels)")
                    : Result.ok(TierValue.AUTO);
        }
        return TierNames.tier(raw, tiers).map(n -> new TierValue(n, false));
    }

    /** A mode as the bridge's keys write it, or the one another scheduler's key implies. */
    private static Result<TopologyMode> modeOf(String key, String raw) {
        return Dialects.mode(key).map(Result::ok).orElseGet(() -> mode(raw));
    }

    static Result<TopologyMode> mode(String raw) {
        String value = raw.trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "hard" -> Result.ok(TopologyMode.HARD);
            case "soft" -> Result.ok(TopologyMode.SOFT);
            default -> Result.error("mode must be hard or soft");
        };
    }

    static Result<String> group(String raw) {
        String value = raw.trim();
        return validGroup(value)
                ? Result.ok(value)
                : Result.error("a group must be a DNS-1123 label: lowercase letters, digits and '-', "
                        + "starting and ending with a letter or digit, at most 63 characters");
    }

    /** Whether {@code value} can name a Volcano queue (a DNS-1123 subdomain). */
    public static boolean validQueue(String value) {
        return value.length() <= 253 && HyperNodeNames.dnsSubdomain(value);
    }

    static Result<String> queue(String raw) {
        String value = raw.trim();
        return validQueue(value)
                ? Result.ok(value)
                : Result.error("a queue name must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.'");
    }

    static Result<Integer> minMember(String raw) {
        Long number = TierNames.integer(raw.trim());
        if (number == null) {
            return Result.error("not a whole number; write the minimum number of pods the gang needs to start");
        }
        if (number < 1) {
            return Result.error("must be at least 1");
        }
        return number > Integer.MAX_VALUE ? Result.error("too large") : Result.ok(number.intValue());
    }

    static Result<DomainLossPolicy> onDomainLoss(String raw) {
        String value = raw.trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "wait" -> Result.ok(DomainLossPolicy.WAIT);
            case "restart" -> Result.ok(DomainLossPolicy.RESTART);
            default -> Result.error("must be wait or restart; the gang waits (the default)");
        };
    }

    /**
     * A duration written as whole hours, minutes and seconds ({@code 30s}, {@code 5m}, {@code 1h30m}), within
     * {@link #MIN_DOMAIN_LOSS_GRACE} and {@link #MAX_DOMAIN_LOSS_GRACE}.
     */
    static Result<java.time.Duration> domainLossGrace(String raw) {
        String value = raw.trim().toLowerCase(Locale.ROOT);
        String bounds = "between " + MIN_DOMAIN_LOSS_GRACE.toSeconds() + "s and " + MAX_DOMAIN_LOSS_GRACE.toHours()
                + "h; the configured grace holds";
        if (value.length() > 32 || !DURATION.matcher(value).matches()) {
            return Result.error(
                    "not a duration: write whole hours, minutes and seconds such as 30s, 5m or 1h30m, " + bounds);
        }
        java.time.Duration total = java.time.Duration.ZERO;
        var parts = DURATION_PART.matcher(value);
        while (parts.find()) {
            long amount = Long.parseLong(parts.group(1));
            total = total.plus(
                    switch (parts.group(2)) {
                        case "h" -> java.time.Duration.ofHours(amount);
                        case "m" -> java.time.Duration.ofMinutes(amount);
                        default -> java.time.Duration.ofSeconds(amount);
                    });
        }
        if (total.compareTo(MIN_DOMAIN_LOSS_GRACE) < 0 || total.compareTo(MAX_DOMAIN_LOSS_GRACE) > 0) {
            return Result.error("out of range: must be " + bounds);
        }
        return Result.ok(total);
    }
}
