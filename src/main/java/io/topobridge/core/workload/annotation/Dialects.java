package io.topobridge.core.workload.annotation;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.WorkloadReason;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The topology annotations other schedulers define (Kueue, KAI, LeaderWorkerSet), read as the bridge's own: one table
 * says which setting of the bridge each key gives and in which mode. Their values are node label keys, resolved
 * through the tier catalog to the tier that reads the key. A workload Kueue manages or whose pod template names
 * another scheduler is that scheduler's: its keys are left to it.
 */
public final class Dialects {

    public static final String KUEUE_REQUIRED = "kueue.x-k8s.io/podset-required-topology";
    public static final String KUEUE_PREFERRED = "kueue.x-k8s.io/podset-preferred-topology";
    public static final String KUEUE_SLICE_REQUIRED = "kueue.x-k8s.io/podset-slice-required-topology";
    public static final String KUEUE_SLICE_SIZE = "kueue.x-k8s.io/podset-slice-size";
    /** The label that puts a workload in a Kueue queue: Kueue manages it. */
    public static final String KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name";

    public static final String KAI_REQUIRED = "kai.scheduler/topology-required-placement";
    public static final String KAI_PREFERRED = "kai.scheduler/topology-preferred-placement";
    public static final String KAI_SEGMENT_REQUIRED = "kai.scheduler/segment-topology-required-placement";
    public static final String KAI_SEGMENT_PREFERRED = "kai.scheduler/segment-topology-preferred-placement";
    public static final String KAI_SEGMENT_SIZE = "kai.scheduler/segment-size";
    public static final String KAI_POD_INDEX_LABEL = "kai.scheduler/pod-index-label";

    public static final String LWS_EXCLUSIVE = "leaderworkerset.sigs.k8s.io/exclusive-topology";
    public static final String LWS_SUBGROUP_EXCLUSIVE = "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";

    /** The scheduler names whose pods Volcano places: none named, Kubernetes' default (admission renames it), Volcano. */
    private static final Set<String> VOLCANO_SCHEDULERS = Set.of("", "default-scheduler", "volcano");

    private static final Pattern LABEL_KEY = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    /** The setting of the bridge a foreign key gives. */
    enum Setting {
        GANG_TIER,
        SUBGROUP_TIER,
        SLICE_SIZE,
        POD_INDEX_LABEL
    }

    /** One foreign key: the setting it gives, and the mode it implies (null: none). */
    record Key(Setting setting, TopologyMode mode) {}

    private static final Map<String, Key> KEYS = table();
    /** The foreign keys of each setting, in table order: asked for every managed gang, so built once. */
    private static final Map<Setting, List<String>> KEYS_BY_SETTING = KEYS.keySet().stream()
            .collect(Collectors.groupingBy(
                    key -> KEYS.get(key).setting(),
                    () -> new EnumMap<>(Setting.class),
                    Collectors.toUnmodifiableList()));

    private static Map<String, Key> table() {
        Map<String, Key> out = new LinkedHashMap<>();
        out.put(KUEUE_REQUIRED, new Key(Setting.GANG_TIER, TopologyMode.HARD));
        out.put(KUEUE_PREFERRED, new Key(Setting.GANG_TIER, TopologyMode.SOFT));
        out.put(KUEUE_SLICE_REQUIRED, new Key(Setting.SUBGROUP_TIER, TopologyMode.HARD));
        out.put(KUEUE_SLICE_SIZE, new Key(Setting.SLICE_SIZE, null));
        out.put(KAI_REQUIRED, new Key(Setting.GANG_TIER, TopologyMode.HARD));
        out.put(KAI_PREFERRED, new Key(Setting.GANG_TIER, TopologyMode.SOFT));
        out.put(KAI_SEGMENT_REQUIRED, new Key(Setting.SUBGROUP_TIER, TopologyMode.HARD));
        out.put(KAI_SEGMENT_PREFERRED, new Key(Setting.SUBGROUP_TIER, TopologyMode.SOFT));
        out.put(KAI_SEGMENT_SIZE, new Key(Setting.SLICE_SIZE, null));
        out.put(KAI_POD_INDEX_LABEL, new Key(Setting.POD_INDEX_LABEL, null));
        out.put(LWS_EXCLUSIVE, new Key(Setting.GANG_TIER, TopologyMode.HARD));
        out.put(LWS_SUBGROUP_EXCLUSIVE, new Key(Setting.SUBGROUP_TIER, TopologyMode.HARD));
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * Where one scheduler's required key makes its preferred key of the same setting a refinement the bridge cannot
     * express (KAI reads both together); Kueue refuses the pair, so for Kueue they are two values of one setting.
     */
    private static final Map<String, String> PREFERENCE_UNDER_REQUIREMENT =
            Map.of(KAI_PREFERRED, KAI_REQUIRED, KAI_SEGMENT_PREFERRED, KAI_SEGMENT_REQUIRED);

    /** The foreign keys that give one setting, in table order. */
    static List<String> keys(Setting setting) {
        return KEYS_BY_SETTING.get(setting);
    }

    public static boolean isForeign(String key) {
        return KEYS.containsKey(key);
    }

    static Optional<TopologyMode> mode(String key) {
        Key k = KEYS.get(key);
        return k == null ? Optional.empty() : Optional.ofNullable(k.mode());
    }

    static boolean present(List<AnnotationSource> sources) {
        for (AnnotationSource source : sources) {
            for (String key : source.annotations().keySet()) {
                if (KEYS.containsKey(key)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The sources with the foreign keys the bridge reads: none at all when the workload is another scheduler's (Kueue
     * manages it, or a pod template names another scheduler), said once per object that carries them; and without a
     * preference given next to a requirement of the same scheduler (the requirement holds), said too.
     */
    static List<AnnotationSource> readable(List<AnnotationSource> sources, List<Finding> findings) {
        if (!present(sources)) {
            return sources;
        }
        String owner = otherScheduler(sources);
        if (owner != null) {
            Set<ObjectRef> told = new LinkedHashSet<>();
            for (AnnotationSource source : sources) {
                Optional<String> key = source.annotations().keySet().stream()
                        .filter(KEYS::containsKey)
                        .sorted()
                        .findFirst();
                if (key.isPresent() && told.add(source.object())) {
                    findings.add(Finding.info(
                                    WorkloadReason.LEFT_TO_OTHER_SCHEDULER,
                                    source.object(),
                                    source.object() + ": " + owner + ", so its topology annotations of other"
                                            + " schedulers (" + key.get() + " and the like) are left to it; the bridge"
                                            + " makes no PodGroup from them")
                            .withKey(key.get()));
                }
            }
            return sources.stream().map(Dialects::withoutForeignKeys).toList();
        }
        return sources.stream()
                .map(s -> withoutPreferenceUnderRequirement(s, findings))
                .toList();
    }

    /** Why the workload is another scheduler's, or null when Volcano places it. */
    private static String otherScheduler(List<AnnotationSource> sources) {
        for (AnnotationSource source : sources) {
            String queue = source.labels().get(KUEUE_QUEUE_LABEL);
            if (queue != null) {
                return "Kueue manages it (" + KUEUE_QUEUE_LABEL + "=" + UserText.quote(queue) + " on its "
                        + UserText.excerpt(source.where()) + ")";
            }
            String scheduler =
                    source.scheduler() == null ? "" : source.scheduler().trim();
            if (!VOLCANO_SCHEDULERS.contains(scheduler)) {
                return "its " + UserText.excerpt(source.where()) + " names scheduler " + UserText.quote(scheduler);
            }
        }
        return null;
    }

    private static AnnotationSource withoutForeignKeys(AnnotationSource source) {
        Map<String, String> kept = new LinkedHashMap<>(source.annotations());
        kept.keySet().removeIf(KEYS::containsKey);
        return new AnnotationSource(source.object(), source.where(), kept, source.labels(), source.scheduler());
    }

    private static AnnotationSource withoutPreferenceUnderRequirement(AnnotationSource source, List<Finding> findings) {
        Map<String, String> kept = null;
        for (var pair : PREFERENCE_UNDER_REQUIREMENT.entrySet()) {
            String preferred = source.annotations().get(pair.getKey());
            String required = source.annotations().get(pair.getValue());
            if (preferred == null || required == null) {
                continue;
            }
            if (kept == null) {
                kept = new LinkedHashMap<>(source.annotations());
            }
            kept.remove(pair.getKey());
            findings.add(Finding.warning(
                            WorkloadReason.FOREIGN_KEY_IGNORED,
                            source.object(),
                            source.object() + ": " + pair.getKey() + "=" + UserText.quote(preferred) + " ("
                                    + UserText.excerpt(source.where()) + ") is ignored: next to "
                                    + pair.getValue() + "=" + UserText.quote(required)
                                    + " the requirement holds (a Volcano PodGroup has one tier; in hard mode Volcano"
                                    + " already prefers the lowest HyperNode that holds the gang)")
                    .withKey(pair.getKey()));
        }
        return kept == null
                ? source
                : new AnnotationSource(source.object(), source.where(), kept, source.labels(), source.scheduler());
    }

    /** Each slice topology key with the size key it needs on the same object (and the size key's topology keys). */
    private static final Map<String, String> SIZE_OF_SLICES = Map.of(
            KUEUE_SLICE_REQUIRED, KUEUE_SLICE_SIZE,
            KAI_SEGMENT_REQUIRED, KAI_SEGMENT_SIZE,
            KAI_SEGMENT_PREFERRED, KAI_SEGMENT_SIZE);

    /**
     * A slice topology without its size, or a size without a slice topology, on one pod template or object (both
     * schedulers read them together): refused, naming the key that is there and the one that is missing.
     */
    static void incompleteSlices(List<AnnotationSource> sources, List<Finding> findings) {
        for (AnnotationSource source : sources) {
            Map<String, String> a = source.annotations();
            Set<String> sizes = new java.util.TreeSet<>();
            SIZE_OF_SLICES.forEach((topology, size) -> {
                if (a.containsKey(topology) && !a.containsKey(size)) {
                    findings.add(incomplete(source, topology, "slices need " + size + " (how many pods each holds)"));
                }
                if (a.containsKey(topology)) {
                    sizes.add(size);
                }
            });
            for (String size : List.of(KUEUE_SLICE_SIZE, KAI_SEGMENT_SIZE)) {
                if (a.containsKey(size) && !sizes.contains(size)) {
                    String needs = SIZE_OF_SLICES.entrySet().stream()
                            .filter(e -> e.getValue().equals(size))
                            .map(Map.Entry::getKey)
                            .sorted()
                            .collect(Collectors.joining(" or "));
                    findings.add(incomplete(source, size, "a slice size needs the slices' topology (" + needs + ")"));
                }
            }
        }
    }

    private static Finding incomplete(AnnotationSource source, String key, String why) {
        return Finding.rejected(
                        WorkloadReason.INVALID_ANNOTATION,
                        source.object(),
                        source.object() + ": " + key + "="
                                + UserText.quote(source.annotations().get(key)) + " ("
                                + UserText.excerpt(source.where()) + "): " + why)
                .withKey(key + " (" + source.where() + ")");
    }

    /** A node label key resolved to the one tier that reads it. */
    static Result<Integer> tier(String raw, TierCatalog tiers) {
        String value = raw.trim();
        if (tiers.isEmpty()) {
            return Result.tiersUnknown("no tiers are known yet: no node carries the configured topology labels");
        }
        if (value.isEmpty() || value.length() > 316 || !LABEL_KEY.matcher(value).matches()) {
            return Result.error("not a node label key; write the label key of a tier (" + knownKeys(tiers) + ")");
        }
        Optional<Integer> number = tiers.numberOfLabelKey(value);
        if (number.isPresent()) {
            return Result.ok(number.get());
        }
        Set<Integer> readers = tiers.numbersOfLabelKey(value);
        if (IntStream.rangeClosed(1, tiers.top())
                .allMatch(n -> tiers.labelKeys(n).isEmpty())) {
            // a catalog of bare tiers (read from HyperNodes of other sources) knows no label keys: wait, not refuse
            return Result.tiersUnknown("which node label keys the tiers read is not known yet");
        }
        if (!readers.isEmpty()) {
            return Result.error("node label " + UserText.quote(value) + " is read by tiers " + readers
                    + " of different label schemes; write topobridge.io/highest-tier with the number instead");
        }
        return Result.error("no tier reads node label " + UserText.quote(value) + " (" + knownKeys(tiers) + ")");
    }

    /** {@code tiers 1=nvidia.com/gpu.clique, 2=…}: the label keys a user may name, at most three per tier. */
    static String knownKeys(TierCatalog tiers) {
        var out = new StringJoiner(", ");
        for (int n = 1; n <= tiers.top(); n++) {
            List<String> keys = tiers.labelKeys(n);
            String shown = String.join("|", keys.subList(0, Math.min(3, keys.size())));
            out.add(n + "=" + (shown.isEmpty() ? "?" : shown) + (keys.size() > 3 ? "|…" : ""));
        }
        return "tiers read " + out;
    }

    /** A slice or segment size: a whole number of pods, at least 1. */
    static Result<Integer> sliceSize(String raw) {
        String value = raw.trim();
        if (!value.matches("[+]?[0-9]{1,9}")) {
            return Result.error("not a whole number of pods (1 to 999999999)");
        }
        int size = Integer.parseInt(value.startsWith("+") ? value.substring(1) : value);
        return size < 1 ? Result.error("must be at least 1 pod") : Result.ok(size);
    }

    /** The label that carries each pod's index (KAI's {@code pod-index-label}): a label key. */
    static Result<String> podIndexLabel(String raw) {
        String value = raw.trim();
        return value.length() <= 316 && LABEL_KEY.matcher(value).matches()
                ? Result.ok(value)
                : Result.error("not a label key");
    }
}
