package io.topobridge.core.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.HyperNodeNames;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.kind.Workload;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * One run of the expansion: what the controllers see ({@link Index}), what they made, the cap, the notes, and the
 * generated values with their parts. Controllers run depth first, so a gang is made whole before the next one and
 * the cap cuts between gangs.
 */
public final class Context {

    /** State of one input object whose expansion the per-workload cap counts. */
    private static final class Root {
        final HasMetadata object;
        long created;
        boolean capped;
        final Set<String> generated = new TreeSet<>();

        Root(HasMetadata object) {
            this.object = object;
        }
    }

    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

    private final Expansion.Limits limits;
    private final List<Controller> controllers;
    private final List<PodDefaulter> podDefaulters;
    public final Index index = new Index();
    private final List<HasMetadata> created = new ArrayList<>();
    private final Map<Finding.Id, Finding> notes = new LinkedHashMap<>();
    private final Map<String, List<Generated.Part>> generated = new HashMap<>();
    private final List<Root> roots = new ArrayList<>();
    private final Map<HasMetadata, Workload> views = new IdentityHashMap<>();
    private long total;
    private Root current;

    Context(Expansion.Limits limits, List<Controller> controllers, List<PodDefaulter> podDefaulters) {
        this.limits = limits;
        this.controllers = controllers;
        this.podDefaulters = podDefaulters;
    }

    // ---------------------------------------------------------------- driving

    /** Expands one input object with every controller that acts on it, and what they make, depth first. */
    void expandRoot(HasMetadata object) {
        current = new Root(object);
        roots.add(current);
        boolean gang = controllers.stream().anyMatch(c -> c.actsOn(object)) && !divisible(object);
        if (gang && !room(current, weight(object))) {
            // an input that is itself one gang (a RoleSet, a PodSet) is shown whole or not at all
            current.capped = true;
        } else {
            reconcileAll(object, current, gang);
        }
        current = null;
    }

    private void reconcileAll(HasMetadata object, Root root, boolean prepaid) {
        for (Controller controller : controllers) {
            if (!controller.actsOn(object)) {
                continue;
            }
            try {
                controller.reconcile(object, this, child -> accept(child, root, prepaid));
            } catch (IllegalArgumentException e) {
                note(Severity.WARNING, ExpansionReason.NOT_EXPANDED, object, e.getMessage());
            } catch (RuntimeException e) {
                // hostile input must never end the run: whatever the controller could not read is a note
                note(
                        Severity.WARNING,
                        ExpansionReason.NOT_EXPANDED,
                        object,
                        "cannot be read (" + e.getClass().getSimpleName() + ": "
                                + UserText.excerpt(String.valueOf(e.getMessage())) + ")");
            }
        }
    }

    /**
     * A child a controller creates. Outside a gang already paid for, the child and all it will make must fit the caps
     * (a gang is made whole or not at all); a divisible child that does not fit whole is made alone and its own
     * children are counted one by one.
     */
    private boolean accept(HasMetadata child, Root root, boolean prepaid) {
        HasMetadata admitted = admit(child);
        if (admitted == null) {
            return true;
        }
        if (room(root, prepaid ? 1 : Build.add(1, weight(admitted)))) {
            make(admitted, root, true);
            return true;
        }
        if (!prepaid && divisible(admitted) && room(root, 1)) {
            make(admitted, root, false);
            return true;
        }
        root.capped = true;
        return false;
    }

    /**
     * Adds a created object and makes its children; nothing when one of its kind and name exists (a controller never
     * makes it twice).
     */
    private void make(HasMetadata object, Root root, boolean prepaid) {
        if (index.add(object)) {
            created.add(object);
            root.created++;
            total++;
            reconcileAll(object, root, prepaid);
        }
    }

    /**
     * An object as the API server lets it in: a pod defaulted by the admission webhooks; null when a webhook or the
     * API server's own validation would refuse it (noted: its controller's create fails).
     */
    private HasMetadata admit(HasMetadata child) {
        HasMetadata admitted = child;
        if ("/Pod".equals(Index.kindOf(child))) {
            for (PodDefaulter defaulter : podDefaulters) {
                try {
                    admitted = defaulter.admit(admitted, this);
                } catch (IllegalArgumentException e) {
                    note(Severity.WARNING, ExpansionReason.NOT_EXPANDED, child, e.getMessage());
                    return null;
                }
            }
        }
        var refusal = refusal(admitted);
        if (refusal.isPresent()) {
            note(
                    Severity.WARNING,
                    ExpansionReason.NOT_EXPANDED,
                    admitted,
                    "the API server refuses the " + admitted.getKind() + " a controller makes: " + refusal.get());
            return null;
        }
        return admitted;
    }

    private boolean room(Root root, long n) {
        return n <= limits.objectsPerWorkload() - root.created && n <= limits.objectsTotal() - total;
    }

    /** How many objects the controllers of {@code object} would create for it (saturating). */
    public long weight(HasMetadata object) {
        long sum = 0;
        for (Controller controller : controllers) {
            if (controller.actsOn(object)) {
                try {
                    sum = Build.add(sum, controller.weight(object, this));
                } catch (RuntimeException e) {
                    // reconcile reports what cannot be read
                }
            }
        }
        return sum;
    }

    private boolean divisible(HasMetadata object) {
        List<Controller> acting =
                controllers.stream().filter(c -> c.actsOn(object)).toList();
        return !acting.isEmpty() && acting.stream().allMatch(Controller::divisible);
    }

    /**
     * The view of a workload object, made once per object (objects do not change once made): its spec tree and the
     * shapes every controller and weight reads again are read once, through its memo.
     */
    public Workload view(HasMetadata object) {
        return views.computeIfAbsent(object, o -> Workload.of(o).orElseThrow());
    }

    // ---------------------------------------------------------------- generated values

    /**
     * A token render makes up in place of what the controller picks at random or hashes: its value, the regular
     * expression of the real one, and what it is (named in the workload's note).
     */
    public Generated.Part token(String value, String pattern, String meaning) {
        if (current != null) {
            current.generated.add(meaning);
        }
        return new Generated.Part(value, pattern, true);
    }

    /**
     * A {@code generateName} as the API server completes it: {@code prefix} cut to the base it keeps and five generated
     * characters, tried until no {@code kind} in {@code ns} has that name. The seed of a try is {@code seed} and the
     * count of {@code attempts} so far, so a controller's loop of creates goes on where its last create stopped.
     */
    public String generateName(
            String prefix, String kind, String ns, String seed, AtomicInteger attempts, String meaning) {
        String base =
                prefix.length() > Names.MAX_GENERATE_NAME_BASE ? cut(prefix, 0, Names.MAX_GENERATE_NAME_BASE) : prefix;
        String name;
        do {
            String suffix = Names.suffix(seed + "/" + attempts.getAndIncrement());
            name = compose(base, token(suffix, Names.SUFFIX_PATTERN, meaning));
        } while (index.has(kind, ns, name));
        return name;
    }

    /**
     * Text joined from pieces: a string (a generated value keeps its parts) or a {@link Generated.Part}. The result is
     * remembered as generated when any piece is.
     */
    public String compose(Object... pieces) {
        List<Generated.Part> parts = new ArrayList<>();
        for (Object piece : pieces) {
            if (piece instanceof Generated.Part part) {
                parts.add(part);
            } else {
                parts.addAll(parts(String.valueOf(piece)));
            }
        }
        return remember(parts);
    }

    /** The characters {@code from} to {@code to} of a value, its generated parts cut the same way. */
    public String cut(String value, int from, int to) {
        List<Generated.Part> out = new ArrayList<>();
        int at = 0;
        for (Generated.Part part : parts(value)) {
            int start = Math.max(from, at);
            int end = Math.min(to, at + part.text().length());
            if (start < end) {
                out.add(part.slice(start - at, end - at));
            }
            at += part.text().length();
        }
        return remember(out);
    }

    private String remember(List<Generated.Part> parts) {
        List<Generated.Part> merged = new ArrayList<>();
        StringBuilder value = new StringBuilder();
        boolean any = false;
        for (Generated.Part part : parts) {
            value.append(part.text());
            if (part.text().isEmpty() && part.literal()) {
                continue;
            }
            any |= !part.literal();
            int last = merged.size() - 1;
            if (part.literal() && last >= 0 && merged.get(last).literal()) {
                merged.set(last, Generated.Part.literal(merged.get(last).text() + part.text()));
            } else {
                merged.add(part);
            }
        }
        String text = value.toString();
        if (any) {
            generated.putIfAbsent(text, List.copyOf(merged));
        }
        return text;
    }

    public boolean generated(String value) {
        return value != null && generated.containsKey(value);
    }

    /** The parts of a value: its generated parts, or the value as one literal. */
    public List<Generated.Part> parts(String value) {
        List<Generated.Part> known = generated.get(value);
        return known != null ? known : List.of(Generated.Part.literal(value));
    }

    /**
     * Why the API server refuses {@code object}, if it does: its checks of the metadata of an object a controller
     * creates (names, label keys and values, annotation keys and size, a pod's hostname and subdomain). A
     * controller's create of an object that fails them fails, so render makes none either.
     */
    private static Optional<String> refusal(HasMetadata object) {
        String name = object.getMetadata().getName();
        if (name == null || name.length() > 253 || !HyperNodeNames.dnsSubdomain(name)) {
            return Optional.of("metadata.name " + UserText.quote(String.valueOf(name)) + " is not a DNS subdomain");
        }
        for (var label : Build.labels(object).entrySet()) {
            if (!qualifiedName(label.getKey())) {
                return Optional.of("label key " + UserText.quote(label.getKey()) + " is not a qualified name");
            }
            String value = label.getValue();
            if (value == null
                    || value.length() > 63
                    || !LABEL_VALUE.matcher(value).matches()) {
                return Optional.of("label " + UserText.identifier(label.getKey()) + " has the invalid value "
                        + UserText.quote(String.valueOf(value)) + " (at most 63 characters)");
            }
        }
        long size = 0;
        for (Map.Entry<String, String> annotation : Build.annotations(object).entrySet()) {
            if (!qualifiedName(annotation.getKey().toLowerCase(java.util.Locale.ROOT))) {
                return Optional.of(
                        "annotation key " + UserText.quote(annotation.getKey()) + " is not a qualified name");
            }
            size += annotation.getKey().getBytes(StandardCharsets.UTF_8).length
                    + (annotation.getValue() == null
                            ? 0
                            : annotation.getValue().getBytes(StandardCharsets.UTF_8).length);
        }
        if (size > MAX_ANNOTATIONS_BYTES) {
            return Optional.of("its annotations are " + size + " bytes, more than " + MAX_ANNOTATIONS_BYTES);
        }
        if (object instanceof Pod pod && pod.getSpec() != null) {
            for (String field : new String[] {"hostname", "subdomain"}) {
                String value = "hostname".equals(field)
                        ? pod.getSpec().getHostname()
                        : pod.getSpec().getSubdomain();
                if (value != null && !value.isEmpty() && (value.length() > 63 || !HyperNodeNames.dnsLabel(value))) {
                    return Optional.of("spec." + field + " " + UserText.quote(value) + " is not a DNS label");
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a label or annotation key is a Kubernetes qualified name, as the API server checks it. */
    private static boolean qualifiedName(String key) {
        return key != null && TopologySettings.labelKeyProblem(key) == null;
    }

    // ---------------------------------------------------------------- notes

    public void note(Severity severity, ExpansionReason reason, HasMetadata object, String message) {
        ObjectRef ref = ObjectRef.of(object);
        Finding finding = new Finding(severity, reason, ref, "", message);
        notes.putIfAbsent(finding.id(), finding);
    }

    // ---------------------------------------------------------------- the result

    Expansion.Result result() {
        for (Root root : roots) {
            // a token computed only to compare with what is given (nothing made) names nothing the output holds
            if (root.created > 0 && !root.generated.isEmpty()) {
                note(
                        Severity.INFO,
                        ExpansionReason.GENERATED_NAMES,
                        root.object,
                        "generated here, deterministic and of the same shape (the controllers pick them at random or"
                                + " hash them from Go structures): " + String.join(", ", root.generated));
            }
            if (root.capped) {
                long expected = weight(root.object);
                note(
                        Severity.WARNING,
                        ExpansionReason.EXPANSION_CAPPED,
                        root.object,
                        "render shows " + root.created + " of the "
                                + (expected == Long.MAX_VALUE
                                        ? "more than " + Long.MAX_VALUE
                                        : String.valueOf(expected))
                                + " objects its controllers would make: the cap is " + limits.objectsPerWorkload()
                                + " per workload and " + limits.objectsTotal() + " in total");
            }
        }
        return new Expansion.Result(created, List.copyOf(notes.values()), generatedIn(created));
    }

    /** The generated values the created objects hold (names, label and annotation values, owners' names). */
    private List<Generated> generatedIn(List<HasMetadata> objects) {
        Set<String> seen = new HashSet<>();
        List<Generated> out = new ArrayList<>();
        for (HasMetadata object : objects) {
            List<String> values = new ArrayList<>();
            values.add(object.getMetadata().getName());
            values.add(object.getMetadata().getGenerateName());
            values.addAll(Build.labels(object).values());
            values.addAll(Build.annotations(object).values());
            for (OwnerReference owner : object.getMetadata().getOwnerReferences()) {
                values.add(owner.getName());
            }
            for (String value : values) {
                List<Generated.Part> parts = value == null ? null : generated.get(value);
                if (parts != null && seen.add(value)) {
                    out.add(new Generated(value, parts));
                }
            }
        }
        return out;
    }
}
