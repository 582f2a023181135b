package io.topobridge.core.finding;

import java.util.Comparator;
import java.util.Objects;

/**
 * Something the bridge noticed and will not silently guess about. Each finding becomes a log line, a
 * Kubernetes Event on {@link #object()} where that object exists, a metric sample and, in {@code render}, a
 * line on stderr.
 *
 * <p>The message is one line of at most {@link UserText#MAX_MESSAGE_BYTES} bytes: user values in it are quoted
 * with {@link UserText#quote}, and whatever still could break a line is escaped here.
 */
public record Finding(Severity severity, Reason reason, ObjectRef object, String message) {

    public static final Comparator<Finding> ORDER = Comparator
            .comparing((Finding f) -> f.object().toString())
            .thenComparing(f -> f.reason().reason())
            .thenComparing(Finding::message);

    public Finding {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(message, "message");
        message = UserText.line(message, UserText.MAX_MESSAGE_BYTES);
    }

    public static Finding rejected(Reason reason, ObjectRef object, String message) {
        return new Finding(Severity.REJECTED, reason, object, message);
    }

    public static Finding warning(Reason reason, ObjectRef object, String message) {
        return new Finding(Severity.WARNING, reason, object, message);
    }

    public static Finding info(Reason reason, ObjectRef object, String message) {
        return new Finding(Severity.INFO, reason, object, message);
    }

    public boolean isRejection() {
        return severity == Severity.REJECTED;
    }

    /** One line: {@code SEVERITY Kind/ns/name Reason: message}, at most {@link UserText#MAX_MESSAGE_BYTES} bytes. */
    public String line() {
        return UserText.line(severity + " " + object + " " + reason.reason() + ": " + message, UserText.MAX_MESSAGE_BYTES);
    }
}
