package io.topobridge.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.topobridge.core.expand.Generated;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares the objects {@code Expansion.expand} made with the objects real controllers made: the same kinds, names,
 * labels, annotations and owner references (API version, kind, name, controller, blockOwnerDeletion). A value render
 * generated is compared by its parts: literal text exactly, each generated token by the shape of what the controller
 * writes there, and one token to one actual value wherever it appears (a RoleSet's suffix in its name, its pods' names
 * and labels). Annotations in {@code ignoredAnnotations} that the expansion does not set are left out of the actual
 * objects (set by components that are not workload controllers).
 */
public final class ExpansionMatcher {

    private final Map<String, List<Generated.Part>> generated = new HashMap<>();
    private final Set<String> ignoredAnnotations;
    private final Map<String, String> bindings = new HashMap<>();
    private int ignored;

    public ExpansionMatcher(List<Generated> generated, Set<String> ignoredAnnotations) {
        for (Generated g : generated) {
            this.generated.put(g.value(), g.parts());
        }
        this.ignoredAnnotations = ignoredAnnotations;
    }

    /**
     * The differences between expected (in the order the expansion made them: parents first) and actual objects; empty
     * when every expected object has exactly one actual counterpart and no actual object is left over.
     */
    public List<String> differences(List<HasMetadata> expected, List<HasMetadata> actual) {
        List<String> out = new ArrayList<>();
        List<HasMetadata> left = new ArrayList<>(actual);
        left.sort(Comparator.comparing((HasMetadata o) -> o.getKind())
                .thenComparing(o -> o.getMetadata().getName()));
        for (HasMetadata want : expected) {
            HasMetadata match = null;
            Map<String, String> tentative = null;
            for (HasMetadata have : left) {
                if (!Objects.equals(want.getKind(), have.getKind())) {
                    continue;
                }
                Map<String, String> trial = new HashMap<>(bindings);
                if (compare(want, have, trial).isEmpty()) {
                    match = have;
                    tentative = trial;
                    break;
                }
            }
            if (match != null) {
                bindings.putAll(tentative);
                left.remove(match);
                ignored += (int) annotations(match).keySet().stream()
                        .filter(k -> ignoredAnnotations.contains(k)
                                && !annotations(want).containsKey(k))
                        .count();
                continue;
            }
            out.add(missing(want, left));
        }
        for (HasMetadata extra : left) {
            out.add("unexpected " + extra.getKind() + " " + extra.getMetadata().getName() + ": the controllers made it,"
                    + " the expansion did not (labels " + new java.util.TreeMap<>(labels(extra)) + ")");
        }
        return out;
    }

    /** How many annotations of matched objects were left out as not the workload controllers'. */
    public int ignored() {
        return ignored;
    }

    /** The bindings of generated tokens to what the controllers wrote, after {@link #differences}. */
    public Map<String, String> bindings() {
        return Map.copyOf(bindings);
    }

    private String missing(HasMetadata want, List<HasMetadata> left) {
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (HasMetadata have : left) {
            if (!Objects.equals(want.getKind(), have.getKind())) {
                continue;
            }
            List<String> why = compare(want, have, new HashMap<>(bindings));
            if (why.size() < fewest) {
                fewest = why.size();
                best = "closest is " + have.getMetadata().getName() + ":\n      " + String.join("\n      ", why);
            }
        }
        return "missing " + want.getKind() + " " + shown(want.getMetadata().getName()) + " "
                + (best == null ? "(the controllers made no " + want.getKind() + " left to compare)" : best);
    }

    private String shown(String value) {
        List<Generated.Part> parts = generated.get(value);
        return parts == null ? value : value + " (pattern " + regexOf(parts, Map.of()) + ")";
    }

    /** What differs between one expected and one actual object; {@code trial} gains the bindings of a match. */
    private List<String> compare(HasMetadata want, HasMetadata have, Map<String, String> trial) {
        List<String> why = new ArrayList<>();
        value("name", want.getMetadata().getName(), have.getMetadata().getName(), trial, why);
        Map<String, String> wantLabels = labels(want);
        Map<String, String> haveLabels = labels(have);
        keys("label", wantLabels, haveLabels, trial, why);
        Map<String, String> wantAnnotations = annotations(want);
        Map<String, String> haveAnnotations = new LinkedHashMap<>(annotations(have));
        haveAnnotations.keySet().removeIf(k -> ignoredAnnotations.contains(k) && !wantAnnotations.containsKey(k));
        keys("annotation", wantAnnotations, haveAnnotations, trial, why);
        List<OwnerReference> wantOwners = owners(want);
        List<OwnerReference> haveOwners = owners(have);
        if (wantOwners.size() != haveOwners.size()) {
            why.add("owners: expected " + shownOwners(wantOwners) + ", actual " + shownOwners(haveOwners));
        } else {
            for (int i = 0; i < wantOwners.size(); i++) {
                OwnerReference w = wantOwners.get(i);
                OwnerReference h = haveOwners.get(i);
                if (!Objects.equals(w.getApiVersion(), h.getApiVersion())
                        || !Objects.equals(w.getKind(), h.getKind())
                        || !Objects.equals(w.getController(), h.getController())
                        || !Objects.equals(w.getBlockOwnerDeletion(), h.getBlockOwnerDeletion())) {
                    why.add("owner " + i + ": expected " + shownOwners(List.of(w)) + ", actual "
                            + shownOwners(List.of(h)));
                }
                value("owner " + i + " name", w.getName(), h.getName(), trial, why);
            }
        }
        return why;
    }

    private void keys(
            String what,
            Map<String, String> want,
            Map<String, String> have,
            Map<String, String> trial,
            List<String> why) {
        Set<String> all = new TreeSet<>(want.keySet());
        all.addAll(have.keySet());
        for (String key : all) {
            if (!want.containsKey(key)) {
                why.add(what + " " + key + ": not expected, actual " + quote(have.get(key)));
            } else if (!have.containsKey(key)) {
                why.add(what + " " + key + ": expected " + quote(want.get(key)) + ", absent");
            } else {
                value(what + " " + key, want.get(key), have.get(key), trial, why);
            }
        }
    }

    private void value(String what, String want, String have, Map<String, String> trial, List<String> why) {
        List<Generated.Part> parts = want == null ? null : generated.get(want);
        if (parts == null) {
            if (!Objects.equals(want, have)) {
                why.add(what + ": expected " + quote(want) + ", actual " + quote(have));
            }
            return;
        }
        Map<String, String> groups = new LinkedHashMap<>();
        Matcher m = Pattern.compile(regexOf(parts, trial, groups)).matcher(have == null ? "" : have);
        if (have == null || !m.matches()) {
            why.add(what + ": expected the shape " + regexOf(parts, trial) + " (render wrote " + quote(want)
                    + "), actual " + quote(have));
            return;
        }
        for (var group : groups.entrySet()) {
            trial.put(group.getKey(), m.group(group.getValue()));
        }
    }

    private static String regexOf(List<Generated.Part> parts, Map<String, String> bound) {
        return regexOf(parts, bound, new LinkedHashMap<>());
    }

    /** The regex of a generated value: bound tokens as their actual text, new whole tokens as named groups. */
    private static String regexOf(List<Generated.Part> parts, Map<String, String> bound, Map<String, String> groups) {
        StringBuilder out = new StringBuilder();
        for (Generated.Part part : parts) {
            if (part.literal()) {
                out.append(Pattern.quote(part.text()));
            } else if (part.whole() && bound.containsKey(part.text())) {
                out.append(Pattern.quote(bound.get(part.text())));
            } else if (part.whole() && groups.containsKey(part.text())) {
                out.append("\\k<").append(groups.get(part.text())).append('>');
            } else if (part.whole()) {
                String group = "t" + groups.size();
                groups.put(part.text(), group);
                out.append("(?<")
                        .append(group)
                        .append('>')
                        .append(part.pattern())
                        .append(')');
            } else {
                out.append("(?:").append(part.pattern()).append(')');
            }
        }
        return out.toString();
    }

    private static String shownOwners(List<OwnerReference> owners) {
        List<String> out = new ArrayList<>();
        for (OwnerReference o : owners) {
            out.add(o.getApiVersion() + " " + o.getKind() + "/" + o.getName() + " controller=" + o.getController()
                    + " blockOwnerDeletion=" + o.getBlockOwnerDeletion());
        }
        return out.toString();
    }

    private static String quote(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }

    private static Map<String, String> labels(HasMetadata o) {
        return o.getMetadata().getLabels() == null ? Map.of() : o.getMetadata().getLabels();
    }

    private static Map<String, String> annotations(HasMetadata o) {
        return o.getMetadata().getAnnotations() == null
                ? Map.of()
                : o.getMetadata().getAnnotations();
    }

    private static List<OwnerReference> owners(HasMetadata o) {
        return o.getMetadata().getOwnerReferences() == null
                ? List.of()
                : o.getMetadata().getOwnerReferences();
    }
}
