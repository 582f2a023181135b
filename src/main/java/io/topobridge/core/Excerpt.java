package io.topobridge.core;

/**
 * A user value as messages quote it: whole when short, else its first characters and its length, so that a
 * huge field (a 1 MiB annotation, a garbage spec) never floods a finding, an Event or a log line.
 */
public final class Excerpt {

    /** Characters of a value that are quoted before it is cut. */
    public static final int LIMIT = 100;

    private Excerpt() {
    }

    /** {@code value} in double quotes, cut to {@link #LIMIT} characters (then followed by its full length). */
    public static String quoted(Object value) {
        String text = String.valueOf(value);
        if (text.length() <= LIMIT) {
            return "\"" + text + "\"";
        }
        return "\"" + text.substring(0, LIMIT) + "…\" (" + text.length() + " characters)";
    }

    /** {@code value} without quotes, cut like {@link #quoted} (for names that are normally short). */
    public static String cut(Object value) {
        String text = String.valueOf(value);
        return text.length() <= LIMIT ? text : text.substring(0, LIMIT) + "… (" + text.length() + " characters)";
    }

    /** A free text such as an exception message, cut to a few hundred characters. */
    public static String text(String message) {
        String text = String.valueOf(message);
        int limit = 3 * LIMIT;
        return text.length() <= limit ? text : text.substring(0, limit) + "… (" + text.length() + " characters)";
    }
}
