package io.topobridge.docs;

import io.topobridge.core.finding.Reason;
import io.topobridge.core.finding.Severity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The findings reference, generated: every enum under {@code src/main/java} that implements {@link Reason}, each
 * constant with its Event reason, the severities the code raises it with, and its meaning from the constant's Javadoc.
 *
 * <p>The severity is not a property of a reason but of the place that raises it, so it is read from the source: a
 * constant passed to {@code Finding.warning|rejected|info(…)}, to {@code new Finding(Severity.X, …)}, or to a
 * helper method of the same (or the named) class whose body passes its reason on to one of those. A reason raised
 * in a way this scan does not follow shows no severity; one raised with two shows both.
 */
public final class ReasonReference {

    /** One reason: its enum, constant, Event reason, the severities it is raised with, and its Javadoc. */
    public record Entry(String enumName, String constant, String reason, Set<Severity> severities, String meaning) {}

    /** One Reason enum: its binary class name, title (its Javadoc) and constants in source order. */
    public record Group(Class<?> type, String title, List<Entry> entries) {}

    private static final Pattern REASON_ENUM =
            Pattern.compile("\\benum\\s+(\\w+)\\s+implements\\s+(?:[\\w.]+\\s*,\\s*)*(?:[\\w.]*\\.)?Reason\\b");
    private static final Pattern FACTORY = Pattern.compile("\\bFinding\\s*\\.\\s*(warning|rejected|info)\\s*\\(");
    private static final Pattern CONSTRUCTOR = Pattern.compile("\\bnew\\s+Finding\\s*\\(\\s*Severity\\s*\\.\\s*(\\w+)");
    private static final Set<String> NOT_METHODS =
            Set.of("if", "for", "while", "switch", "catch", "synchronized", "try", "return", "new", "else", "do");

    /** The order of the tables: the findings of the two halves first, the one reason that is no finding last. */
    private static final List<String> ORDER = List.of(
            "TopologyReason",
            "WorkloadReason",
            "DoctorReason",
            "PodAdmission.Reasons",
            "ManifestReader.InputReason",
            "PendingReason");

    private ReasonReference() {}

    /** A reason enum's name as the page shows it: its class name within its package ({@code PodAdmission.Reasons}). */
    static String title(Class<?> type) {
        return type.getName().substring(type.getPackageName().length() + 1).replace('$', '.');
    }

    /** Every Reason enum of the sources under {@code sources} (src/main/java), ordered by name. */
    public static List<Group> read(Path sources) {
        Map<Path, JavaSource> files = parseAll(sources);
        Map<String, Set<Severity>> severities = severities(files);
        List<Group> groups = new ArrayList<>();
        List<String> undocumented = new ArrayList<>();
        files.forEach((file, source) -> {
            Matcher m = REASON_ENUM.matcher(source.code());
            while (m.find()) {
                String enumName = m.group(1);
                Class<?> type = load(sources, file, enumName);
                List<Entry> entries = new ArrayList<>();
                for (Object constant : type.getEnumConstants()) {
                    String name = ((Enum<?>) constant).name();
                    String doc = source.doc(enumName, name).orElse("");
                    if (doc.isBlank()) {
                        undocumented.add(enumName + "." + name);
                    }
                    entries.add(new Entry(
                            enumName,
                            name,
                            ((Reason) constant).reason(),
                            severities.getOrDefault(enumName + "." + name, Set.of()),
                            doc));
                }
                groups.add(new Group(type, source.typeDoc(enumName).orElse(""), entries));
            }
        });
        if (!undocumented.isEmpty()) {
            throw new IllegalStateException(
                    "reasons without a Javadoc saying what they mean: " + String.join(", ", undocumented));
        }
        groups.sort(Comparator.comparingInt((Group g) -> {
                    int at = ORDER.indexOf(title(g.type()));
                    return at < 0 ? ORDER.size() : at;
                })
                .thenComparing(g -> g.type().getName()));
        return groups;
    }

    /** The Markdown of the generated region: one table per enum. */
    public static String markdown(List<Group> groups) {
        StringBuilder out = new StringBuilder();
        for (Group group : groups) {
            out.append("\n### ").append(title(group.type())).append("\n\n");
            out.append('`').append(group.type().getName().replace('$', '.')).append("`: ");
            out.append(group.title()).append("\n\n");
            boolean findings =
                    group.entries().stream().anyMatch(e -> !e.severities().isEmpty());
            out.append(
                    findings
                            ? "| reason | severity | meaning |\n|---|---|---|\n"
                            : "| reason | meaning |\n|---|---|\n");
            for (Entry e : group.entries()) {
                out.append("| `").append(e.reason()).append("` | ");
                if (findings) {
                    out.append(severityText(e.severities())).append(" | ");
                }
                out.append(e.meaning()).append(" |\n");
            }
        }
        return out.toString();
    }

    static String severityText(Set<Severity> severities) {
        if (severities.isEmpty()) {
            return "—";
        }
        return Stream.of(Severity.REJECTED, Severity.WARNING, Severity.INFO)
                .filter(severities::contains)
                .map(s -> s.name().toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.joining(" or "));
    }

    private static Map<Path, JavaSource> parseAll(Path sources) {
        Map<Path, JavaSource> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(sources)) {
            walk.filter(p -> p.toString().endsWith(".java")).forEach(p -> out.put(p, JavaSource.read(p)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + sources, e);
        }
        return out;
    }

    private static Class<?> load(Path sources, Path file, String enumName) {
        String relative = sources.relativize(file).toString().replace('\\', '/');
        String top = relative.substring(0, relative.length() - ".java".length()).replace('/', '.');
        String pkg = top.contains(".") ? top.substring(0, top.lastIndexOf('.')) : "";
        String topName = top.substring(top.lastIndexOf('.') + 1);
        String binary = topName.equals(enumName) ? top : top + "$" + enumName;
        try {
            return Class.forName(binary, false, ReasonReference.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("reason enum " + enumName + " of " + relative + " is not " + binary
                    + " (package " + pkg + "): only top-level enums and enums nested once are read");
        }
    }

    /**
     * Per {@code Enum.CONSTANT}, the severities the sources raise it with. Helpers are methods whose body passes a
     * variable (their reason parameter) to a finding factory, or to another helper; they are keyed by the class
     * (file) that declares them.
     */
    static Map<String, Set<Severity>> severities(Map<Path, JavaSource> files) {
        Set<String> reasonTypes = new java.util.HashSet<>(Set.of("Reason"));
        files.values().forEach(source -> {
            Matcher m = REASON_ENUM.matcher(source.code());
            while (m.find()) {
                reasonTypes.add(m.group(1));
            }
        });
        Map<String, Set<Severity>> helpers = new LinkedHashMap<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Map.Entry<Path, JavaSource> f : files.entrySet()) {
                String owner = className(f.getKey());
                JavaSource source = f.getValue();
                String code = source.code();
                for (Call call : calls(code, owner, helpers)) {
                    Method method = enclosingMethod(code, call.at());
                    if (method == null) {
                        continue;
                    }
                    int end = source.matching(call.argsStart() - 1);
                    for (String argument : arguments(code, call.argsStart(), end)) {
                        if (isReasonParameter(method.parameters(), argument, reasonTypes)) {
                            Set<Severity> known = helpers.computeIfAbsent(
                                    owner + "." + method.name(), k -> EnumSet.noneOf(Severity.class));
                            grew |= known.addAll(call.severities());
                        }
                    }
                }
            }
        }
        Map<String, Set<Severity>> out = new TreeMap<>();
        Pattern constant = Pattern.compile("\\b(\\w+)\\s*\\.\\s*([A-Z][A-Z0-9_]*)\\b");
        for (Map.Entry<Path, JavaSource> f : files.entrySet()) {
            String owner = className(f.getKey());
            String code = f.getValue().code();
            for (Call call : calls(code, owner, helpers)) {
                int end = f.getValue().matching(call.argsStart() - 1);
                Matcher m = constant.matcher(code).region(call.argsStart(), end);
                while (m.find()) {
                    // only the constants that are arguments of this very call, not of a call nested in it
                    if (innermostCall(code, m.start()) != call.argsStart() - 1) {
                        continue;
                    }
                    out.computeIfAbsent(m.group(1) + "." + m.group(2), k -> EnumSet.noneOf(Severity.class))
                            .addAll(call.severities());
                }
            }
        }
        return out;
    }

    /** A call that raises a finding: where its name starts, where its arguments start, and its severities. */
    private record Call(int at, int argsStart, Set<Severity> severities) {}

    private static List<Call> calls(String code, String owner, Map<String, Set<Severity>> helpers) {
        List<Call> out = new ArrayList<>();
        Matcher factory = FACTORY.matcher(code);
        while (factory.find()) {
            out.add(new Call(
                    factory.start(),
                    factory.end(),
                    EnumSet.of(Severity.valueOf(factory.group(1).toUpperCase(java.util.Locale.ROOT)))));
        }
        Matcher constructor = CONSTRUCTOR.matcher(code);
        while (constructor.find()) {
            Severity s;
            try {
                s = Severity.valueOf(constructor.group(1));
            } catch (IllegalArgumentException e) {
                continue;
            }
            int open = code.indexOf('(', constructor.start());
            out.add(new Call(constructor.start(), open + 1, EnumSet.of(s)));
        }
        helpers.forEach((key, severities) -> {
            if (severities.isEmpty()) {
                return;
            }
            String helperOwner = key.substring(0, key.lastIndexOf('.'));
            String name = key.substring(key.lastIndexOf('.') + 1);
            // unqualified in its own class, or qualified with its class's name anywhere
            Pattern p = helperOwner.equals(owner)
                    ? Pattern.compile(
                            "(?<![\\w.])" + name + "\\s*\\(|\\b" + helperOwner + "\\s*\\.\\s*" + name + "\\s*\\(")
                    : Pattern.compile("\\b" + helperOwner + "\\s*\\.\\s*" + name + "\\s*\\(");
            Matcher m = p.matcher(code);
            while (m.find()) {
                if (isDeclaration(code, m.start())) {
                    continue;
                }
                out.add(new Call(m.start(), m.end(), severities));
            }
        });
        return out;
    }

    /** Whether the name at {@code at} is a method being declared (a type or modifier stands before it). */
    private static boolean isDeclaration(String code, int at) {
        int k = at - 1;
        while (k >= 0 && Character.isWhitespace(code.charAt(k))) {
            k--;
        }
        if (k < 0) {
            return false;
        }
        char c = code.charAt(k);
        if (c == '>' || c == ']') {
            return true; // List<Finding> name(…), String[] name(…)
        }
        if (!Character.isJavaIdentifierPart(c)) {
            return false;
        }
        int end = k + 1;
        while (k >= 0 && Character.isJavaIdentifierPart(code.charAt(k))) {
            k--;
        }
        String word = code.substring(k + 1, end);
        return !word.equals("return") && !word.equals("new") && !word.equals("else");
    }

    /** The position of the unmatched {@code (} that encloses {@code at}, or -1. */
    private static int innermostCall(String code, int at) {
        int depth = 0;
        for (int k = at - 1; k >= 0; k--) {
            char c = code.charAt(k);
            if (c == ')') {
                depth++;
            } else if (c == '(') {
                if (depth == 0) {
                    return k;
                }
                depth--;
            } else if ((c == '{' || c == '}' || c == ';') && depth == 0) {
                return -1;
            }
        }
        return -1;
    }

    /** A method declaration: its name and the text of its parameter list. */
    record Method(String name, String parameters) {}

    /** Whether {@code argument} is a parameter of the method declared with one of the reason types. */
    private static boolean isReasonParameter(String parameters, String argument, Set<String> reasonTypes) {
        if (!argument.matches("[a-z]\\w*")) {
            return false;
        }
        Matcher m = Pattern.compile("([\\w.]+)\\s+" + argument + "\\b").matcher(parameters);
        while (m.find()) {
            String type = m.group(1);
            if (reasonTypes.contains(type.substring(type.lastIndexOf('.') + 1))) {
                return true;
            }
        }
        return false;
    }

    /** The direct arguments of a call, stripped, between {@code from} and the closing parenthesis at {@code end}. */
    private static List<String> arguments(String code, int from, int end) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = from;
        for (int k = from; k < end; k++) {
            char c = code.charAt(k);
            if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(code.substring(start, k).strip());
                start = k + 1;
            }
        }
        out.add(code.substring(start, Math.max(start, end)).strip());
        return out;
    }

    /** The method whose body holds {@code at}: the nearest enclosing <code>name(…) … {</code>. */
    static Method enclosingMethod(String code, int at) {
        int depth = 0;
        for (int k = at - 1; k >= 0; k--) {
            char c = code.charAt(k);
            if (c == '}') {
                depth++;
            } else if (c == '{') {
                if (depth > 0) {
                    depth--;
                    continue;
                }
                Method method = methodBefore(code, k);
                if (method != null) {
                    return method;
                }
            }
        }
        return null;
    }

    private static final Pattern THROWS = Pattern.compile("\\)\\s*throws\\s+[\\w.,\\s]+$");

    private static Method methodBefore(String code, int brace) {
        int k = brace - 1;
        while (k >= 0 && Character.isWhitespace(code.charAt(k))) {
            k--;
        }
        String before = code.substring(Math.max(0, k - 200), k + 1);
        Matcher t = THROWS.matcher(before);
        if (t.find()) {
            k = k - (before.length() - t.start()) + 1;
        }
        if (k < 0 || code.charAt(k) != ')') {
            return null;
        }
        int close = k;
        int depth = 0;
        for (; k >= 0; k--) {
            char c = code.charAt(k);
            if (c == ')') {
                depth++;
            } else if (c == '(' && --depth == 0) {
                break;
            }
        }
        if (k < 0) {
            return null;
        }
        int open = k;
        k--;
        while (k >= 0 && Character.isWhitespace(code.charAt(k))) {
            k--;
        }
        int nameEnd = k + 1;
        while (k >= 0 && Character.isJavaIdentifierPart(code.charAt(k))) {
            k--;
        }
        String name = code.substring(k + 1, nameEnd);
        if (name.isEmpty() || NOT_METHODS.contains(name)) {
            return null;
        }
        return new Method(name, code.substring(open + 1, close));
    }

    private static String className(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - ".java".length());
    }
}
