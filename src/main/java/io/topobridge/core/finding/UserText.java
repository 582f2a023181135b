package io.topobridge.core.finding;

import java.nio.charset.StandardCharsets;

/**
 * Puts text that users wrote (annotation and label values, spec fields, exception messages that echo them) into
 * messages bounded in length and on one line, so that no value can flood or forge a log line, an Event, an
 * admission answer or a {@code render} line.
 */
public final class UserText {

    /** Most characters of one quoted value a message shows. */
    public static final int MAX_VALUE = 100;
    /** Most characters of a text that embeds user input (an exception's or the API server's message). */
    public static final int MAX_EXCERPT = 300;
    /**
     * Longest message and log line, in UTF-8 bytes: Kubernetes refuses Event notes over 1024 bytes, and a
     * message that fits there fits everywhere else too.
     */
    public static final int MAX_MESSAGE_BYTES = 1024;
    /**
     * Longest name or key left as it is: Kubernetes object names have at most 253 characters, annotation and
     * label keys a 253-character prefix, a slash and a 63-character name.
     */
    static final int MAX_IDENTIFIER = 317;

    private static final String ELLIPSIS = "\u2026";

    /**
     * A user's value as every message quotes it: in double quotes, control, format and line-separator characters
     * (and {@code "} and {@code \}) escaped, cut after {@value #MAX_VALUE} characters with its length when cut:
     * {@code "aaaa…" (1048576 chars)}.
     */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(value.length(), MAX_VALUE) + 24).append('"');
        boolean cut = append(out, value, MAX_VALUE, true);
        out.append(cut ? ELLIPSIS + "\" (" + value.length() + " chars)" : "\"");
        return out.toString();
    }

    /**
     * Text that embeds user input, such as an exception's message: without quotes (so its own quotes and
     * backslashes stay as they are), otherwise escaped like {@link #quote}, and cut after {@value #MAX_EXCERPT}
     * characters with its length when cut.
     */
    public static String excerpt(String text) {
        return text == null ? "no details" : unquoted(text, MAX_EXCERPT);
    }

    /** The first line of a parser's message (whose next lines point into the input), {@code unknown error} for none. */
    public static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /**
     * An object name or annotation key: unchanged when Kubernetes could have accepted it (what every object in
     * a cluster carries, so identities stay exact), otherwise escaped and cut like an {@link #excerpt} of
     * {@value #MAX_VALUE} characters (a name {@code render} read from a file, a pod before validation).
     */
    public static String identifier(String name) {
        if (name == null) {
            return "null";
        }
        return name.length() <= MAX_IDENTIFIER && cleanBytes(name) >= 0 ? name : unquoted(name, MAX_VALUE);
    }

    /** {@code text} escaped without quotes, cut after {@code max} characters with its length when cut. */
    private static String unquoted(String text, int max) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 24);
        if (append(out, text, max, false)) {
            out.append(ELLIPSIS).append(" (").append(text.length()).append(" chars)");
        }
        return out.toString();
    }

    /**
     * A whole message on one line of at most {@code maxBytes} UTF-8 bytes: characters that could break or
     * disguise a line are escaped (values were already quoted, so quotes and backslashes are left alone) and
     * the end is cut off, marked by an ellipsis, when it is longer.
     */
    public static String line(String message, int maxBytes) {
        long bytes = cleanBytes(message);
        if (bytes >= 0 && bytes <= maxBytes) {
            return message;
        }
        StringBuilder escaped = new StringBuilder(Math.min(message.length(), maxBytes) + 16);
        // every character takes at least one byte: more characters than bytes allowed would be cut anyway
        boolean cut = append(escaped, message, maxBytes, false);
        String shown = escaped.toString();
        return !cut && shown.getBytes(StandardCharsets.UTF_8).length <= maxBytes ? shown : cutToBytes(shown, maxBytes);
    }

    /** Appends {@code text} escaped, stopping before the escaped form would exceed {@code max}; true when cut. */
    private static boolean append(StringBuilder out, String text, int max, boolean quoted) {
        int start = out.length();
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            String escape = escape(cp, quoted);
            int width = escape != null ? escape.length() : Character.charCount(cp);
            if (out.length() - start + width > max) {
                return true;
            }
            if (escape != null) {
                out.append(escape);
            } else {
                out.appendCodePoint(cp);
            }
            i += Character.charCount(cp);
        }
        return false;
    }

    /** The escaped form of one code point, or null when it is shown as it is. */
    private static String escape(int cp, boolean quoted) {
        return switch (cp) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '"' -> quoted ? "\\\"" : null;
            case '\\' -> quoted ? "\\\\" : null;
            default -> unsafe(cp) ? unicodeEscape(cp) : null;
        };
    }

    /** The JSON and Java form, a supplementary character (e.g. a tag) as its surrogate pair. */
    private static String unicodeEscape(int cp) {
        StringBuilder out = new StringBuilder(12);
        for (char c : Character.toChars(cp)) {
            out.append(String.format("\\u%04x", (int) c));
        }
        return out.toString();
    }

    /**
     * Characters a terminal, log shipper or UI may act on: controls (NUL, ESC, DEL, NEL…), line and paragraph
     * separators, invisible format characters (bidi overrides and isolates that reorder what is shown,
     * zero-width characters) and unpaired surrogates, which are not text at all.
     */
    private static boolean unsafe(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONTROL,
                    Character.FORMAT,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> true;
            default -> false;
        };
    }

    /**
     * The length of {@code text} in UTF-8 bytes, or -1 when it holds a character {@link #unsafe} to show (such a
     * text is escaped, so its length as it is does not matter). Printable ASCII, what messages are made of, is
     * judged without asking for its character type.
     */
    private static long cleanBytes(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); ) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                bytes++;
                i++;
                continue;
            }
            int cp = text.codePointAt(i);
            if (unsafe(cp)) {
                return -1;
            }
            bytes += utf8Bytes(cp);
            i += Character.charCount(cp);
        }
        return bytes;
    }

    /** The longest start of {@code text} that fits in {@code maxBytes} with the ellipsis that marks the cut. */
    private static String cutToBytes(String text, int maxBytes) {
        int budget = maxBytes - ELLIPSIS.getBytes(StandardCharsets.UTF_8).length;
        int bytes = 0;
        int end = 0;
        while (end < text.length()) {
            int cp = text.codePointAt(end);
            int width = utf8Bytes(cp);
            if (bytes + width > budget) {
                break;
            }
            bytes += width;
            end += Character.charCount(cp);
        }
        return text.substring(0, end) + ELLIPSIS;
    }

    private static int utf8Bytes(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
}
