package io.topobridge.core.finding;

import java.util.Collection;
import java.util.Comparator;
import java.util.Objects;

/**
 * Something the bridge noticed and will not silently guess about. Each finding becomes a log line, a
 * Kubernetes Event on {@link #object()} where that object exists, a metric sample and, in {@code render}, a
 * line on stderr.
 *
 * <p>A finding is the same one for as long as its {@link #id() identity} — object, reason and {@code key} —
 * holds, whatever its message says: "rack r1 with 17 nodes" and "with 18 nodes" are one finding that changed,
 * and its Event counts up instead of a new one appearing. The key tells apart findings of one reason on one
 * object (two bad annotations, two tiers left out of one scheme); it is empty where there can be only one.
 * The message is one line of at most {@link UserText#MAX_MESSAGE_BYTES} bytes: user values in it are quoted
 * with {@link UserText#quote}, and whatever still could break a line is escaped here.
 */
public record Finding(Severity severity, Reason reason, ObjectRef object, String key, String message) {

    public static final Comparator<Finding> ORDER = Comparator.comparing(
                    (Finding f) -> f.object().toString())
            .thenComparing(f -> f.reason().reason())
            .thenComparing(Finding::key)
            .thenComparing(Finding::message);

    /** What makes two findings the same one, as Events, metrics, the REST API and the logs count them. */
    public record Id(ObjectRef object, Reason reason, String key) {}

    public Finding {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(message, "message");
        message = UserText.line(message, UserText.MAX_MESSAGE_BYTES);
    }

    /** A finding that is the only one of its reason on its object (empty key); {@link #withKey} tells it apart. */
    public static Finding rejected(Reason reason, ObjectRef object, String message) {
        return new Finding(Severity.REJECTED, reason, object, "", message);
    }

    public static Finding warning(Reason reason, ObjectRef object, String message) {
        return new Finding(Severity.WARNING, reason, object, "", message);
    }

    public static Finding info(Reason reason, ObjectRef object, String message) {
        return new Finding(Severity.INFO, reason, object, "", message);
    }

    /** The same finding told apart from others of its reason on its object by {@code key}. */
    public Finding withKey(String key) {
        return new Finding(severity, reason, object, key, message);
    }

    public Id id() {
        return new Id(object, reason, key);
    }

    public boolean isRejection() {
        return severity == Severity.REJECTED;
    }

    /** Whether any of {@code findings} is a rejection (a loop: translation asks it several times of every gang). */
    public static boolean anyRejection(Collection<Finding> findings) {
        for (Finding f : findings) {
            if (f.isRejection()) {
                return true;
            }
        }
        return false;
    }

    /** One line: {@code SEVERITY Kind/ns/name Reason: message}, at most {@link UserText#MAX_MESSAGE_BYTES} bytes. */
    public String line() {
        return UserText.line(
                severity + " " + object + " " + reason.reason() + ": " + message, UserText.MAX_MESSAGE_BYTES);
    }
}
