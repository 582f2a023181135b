package io.topobridge.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small reader of Java source files for the generated references: the Javadoc of each type, method, field and enum
 * constant, in source order, with the type it is declared in (nested types by their simple name), and the file's
 * code with comments, strings and character literals blanked out (same length, so positions agree) for scanning.
 *
 * <p>It is no Java parser: it knows comments, string, text-block and character literals, braces, and what a
 * declaration looks like up to its first {@code (}, {@code ,}, {@code ;}, {@code =}, <code>{</code> or
 * <code>}</code>. That is all the configuration interfaces and the reason enums need.
 */
public final class JavaSource {

    /** A documented declaration: its enclosing type's simple name, its own name, and its Javadoc as Markdown. */
    public record Member(String type, String name, Kind kind, String doc) {}

    /** What a documented declaration is. */
    public enum Kind {
        TYPE,
        METHOD,
        FIELD_OR_CONSTANT
    }

    private static final Pattern TYPE_KEYWORD = Pattern.compile("\\b(class|interface|enum|record)\\s+([A-Za-z_]\\w*)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][\\w$]*");

    private final String text;
    private final String code;
    private final List<int[]> javadocs = new ArrayList<>();
    private final List<Member> members;

    private JavaSource(String text) {
        this.text = text;
        this.code = blank(text, javadocs);
        this.members = List.copyOf(readMembers());
    }

    public static JavaSource parse(String text) {
        return new JavaSource(text);
    }

    public static JavaSource read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The source as written. */
    public String text() {
        return text;
    }

    /** The source with every comment, string, text block and character literal replaced by spaces. */
    public String code() {
        return code;
    }

    /** Every declaration that has a Javadoc comment, in source order. */
    public List<Member> members() {
        return members;
    }

    /** The Javadoc of {@code name} declared directly in type {@code type} (a simple name). */
    public Optional<String> doc(String type, String name) {
        return members.stream()
                .filter(m -> m.type().equals(type) && m.name().equals(name) && m.kind() != Kind.TYPE)
                .map(Member::doc)
                .findFirst();
    }

    /** The Javadoc of the type {@code type} itself. */
    public Optional<String> typeDoc(String type) {
        return members.stream()
                .filter(m -> m.kind() == Kind.TYPE && m.name().equals(type))
                .map(Member::doc)
                .findFirst();
    }

    /**
     * Replaces comments and literals by spaces, keeping line breaks, so that positions in the result match; adds the
     * start and end of each Javadoc comment to {@code javadocs}.
     */
    static String blank(String s, List<int[]> javadocs) {
        StringBuilder out = new StringBuilder(s);
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                int end = s.indexOf('\n', i);
                end = end < 0 ? n : end;
                fill(out, i, end);
                i = end;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                if (s.startsWith("/**", i) && end - i > 4) {
                    javadocs.add(new int[] {i, end});
                }
                fill(out, i, end);
                i = end;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                fill(out, i, end);
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && s.charAt(j) != c && s.charAt(j) != '\n') {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                int end = Math.min(n, j + 1);
                fill(out, i, end);
                i = end;
            } else {
                i++;
            }
        }
        return out.toString();
    }

    private static void fill(StringBuilder out, int from, int to) {
        for (int k = from; k < to; k++) {
            if (out.charAt(k) != '\n') {
                out.setCharAt(k, ' ');
            }
        }
    }

    private List<Member> readMembers() {
        List<Member> out = new ArrayList<>();
        // the type whose body each open brace starts (null: a block that is no type body)
        Deque<String> braces = new ArrayDeque<>();
        String pendingType = null;
        int i = 0;
        int n = text.length();
        int next = 0; // the next Javadoc comment
        while (i < n) {
            if (next < javadocs.size() && javadocs.get(next)[0] == i) {
                int[] range = javadocs.get(next++);
                String doc = javadoc(text.substring(range[0] + 3, range[1] - 2));
                Declaration d = declaration(range[1]);
                if (d != null) {
                    String enclosing = enclosingType(braces);
                    if (d.kind() == Kind.TYPE) {
                        out.add(new Member(enclosing == null ? "" : enclosing, d.name(), Kind.TYPE, doc));
                    } else if (enclosing != null) {
                        out.add(new Member(enclosing, d.name(), d.kind(), doc));
                    }
                }
                i = range[1];
                continue;
            }
            char c = code.charAt(i);
            if (c == '{') {
                braces.push(pendingType == null ? "" : pendingType);
                pendingType = null;
            } else if (c == '}') {
                if (!braces.isEmpty()) {
                    braces.pop();
                }
            } else if (c == ';') {
                pendingType = null;
            } else if (Character.isJavaIdentifierStart(c)
                    && (i == 0 || !Character.isJavaIdentifierPart(code.charAt(i - 1)))) {
                Matcher m = TYPE_KEYWORD.matcher(code).region(i, n);
                if (m.lookingAt() && !precededByDot(i)) {
                    pendingType = m.group(2);
                    i = m.end();
                    continue;
                }
            }
            i++;
        }
        return out;
    }

    private boolean precededByDot(int i) {
        int k = i - 1;
        while (k >= 0 && Character.isWhitespace(code.charAt(k))) {
            k--;
        }
        return k >= 0 && code.charAt(k) == '.';
    }

    private static String enclosingType(Deque<String> braces) {
        String top = braces.peek();
        return top == null || top.isEmpty() ? null : top;
    }

    private record Declaration(String name, Kind kind) {}

    /** What follows a Javadoc comment at {@code from}: annotations skipped, up to the first terminator. */
    private Declaration declaration(int from) {
        int i = from;
        int n = code.length();
        String lastIdentifier = null;
        while (i < n) {
            char c = code.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '@') {
                Matcher m = IDENTIFIER.matcher(code).region(i + 1, n);
                if (!m.lookingAt()) {
                    return null;
                }
                i = m.end();
                while (i < n && (code.charAt(i) == '.' || Character.isJavaIdentifierPart(code.charAt(i)))) {
                    i++;
                }
                int j = i;
                while (j < n && Character.isWhitespace(code.charAt(j))) {
                    j++;
                }
                if (j < n && code.charAt(j) == '(') {
                    i = matching(j) + 1;
                }
            } else if (Character.isJavaIdentifierStart(c)) {
                Matcher m = IDENTIFIER.matcher(code).region(i, n);
                m.lookingAt();
                String word = m.group();
                if (word.equals("class") || word.equals("interface") || word.equals("enum") || word.equals("record")) {
                    Matcher name = IDENTIFIER.matcher(code).region(skipSpace(m.end()), n);
                    return name.lookingAt() ? new Declaration(name.group(), Kind.TYPE) : null;
                }
                lastIdentifier = word;
                i = m.end();
            } else if (c == '(') {
                return lastIdentifier == null ? null : new Declaration(lastIdentifier, Kind.METHOD);
            } else if (c == ',' || c == ';' || c == '=' || c == '}' || c == '{') {
                return lastIdentifier == null ? null : new Declaration(lastIdentifier, Kind.FIELD_OR_CONSTANT);
            } else {
                i++; // generics, arrays, dots of qualified types
            }
        }
        return null;
    }

    private int skipSpace(int i) {
        while (i < code.length() && Character.isWhitespace(code.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The position of the parenthesis closing the one at {@code open}. */
    int matching(int open) {
        int depth = 0;
        for (int k = open; k < code.length(); k++) {
            char c = code.charAt(k);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return k;
            }
        }
        return code.length() - 1;
    }

    /**
     * A Javadoc comment's text as one line of Markdown: the leading stars dropped, {@code {@code x}} as {@code `x`},
     * {@code {@link A#b label}} as its label (or {@code `A.b`}), simple HTML dropped, block tags cut off.
     */
    static String javadoc(String body) {
        StringBuilder joined = new StringBuilder();
        for (String line : body.split("\n", -1)) {
            String l = line.strip();
            if (l.startsWith("*")) {
                l = l.substring(1).strip();
            }
            if (l.startsWith("@")) {
                break; // block tags (@param, @return, @see …) are not part of the description
            }
            if (!l.isEmpty()) {
                if (joined.length() > 0) {
                    joined.append(' ');
                }
                joined.append(l);
            }
        }
        String s = inlineTags(joined.toString());
        s = s.replaceAll("</?(p|b|i|em|strong|ul|ol|li|br)\\s*/?>", " ");
        s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("&#64;", "@");
        s = s.replace("|", "\\|");
        return s.replaceAll("\\s+", " ").strip();
    }

    private static String inlineTags(String s) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("{@", i)) {
                int depth = 0;
                int j = i;
                for (; j < s.length(); j++) {
                    if (s.charAt(j) == '{') {
                        depth++;
                    } else if (s.charAt(j) == '}' && --depth == 0) {
                        break;
                    }
                }
                String inner = s.substring(i + 2, Math.min(j, s.length()));
                int space = inner.indexOf(' ');
                String tag = space < 0 ? inner : inner.substring(0, space);
                String arg = space < 0 ? "" : inner.substring(space + 1).strip();
                switch (tag) {
                    case "code", "literal" -> out.append('`').append(arg).append('`');
                    case "link", "linkplain" -> {
                        int labelAt = arg.indexOf(' ');
                        if (labelAt > 0) {
                            out.append(arg.substring(labelAt + 1).strip());
                        } else {
                            String target = arg.startsWith("#") ? arg.substring(1) : arg.replace('#', '.');
                            out.append('`').append(target).append('`');
                        }
                    }
                    default -> out.append(arg);
                }
                i = j + 1;
            } else {
                out.append(s.charAt(i));
                i++;
            }
        }
        return out.toString();
    }
}
