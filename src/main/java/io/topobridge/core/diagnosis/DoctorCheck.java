package io.topobridge.core.diagnosis;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** The outcome of one doctor check: its name, status, one line for people and the findings behind a problem. */
public record DoctorCheck(String name, Status status, String message, List<Finding> findings) {

    /** How bad; the doctor command exits with the worst one's code. */
    public enum Status {
        OK,
        WARNING,
        FAILURE;

        /** 0, 1 or 2: the order of badness. */
        public int exitCode() {
            return ordinal();
        }
    }

    public DoctorCheck {
        findings = List.copyOf(findings);
    }

    /** At most this many names in one message, then a count. */
    static final int MAX_NAMED = 10;

    /** What one check found; the doctor names it after the check. */
    record Result(Status status, String message, List<Finding> findings) {}

    static Result ok(String message) {
        return new Result(Status.OK, message, List.of());
    }

    /** A check's status with one finding that says the same. */
    static Result problem(Status status, DoctorReason reason, ObjectRef ref, String message) {
        return new Result(status, message, List.of(Finding.warning(reason, ref, message)));
    }

    static Result failure(List<String> problems, List<Finding> findings) {
        return new Result(Status.FAILURE, String.join("; ", problems), findings);
    }

    /** The names sorted and without repeats, at most {@value #MAX_NAMED} of them, then how many more. */
    static String named(List<String> names) {
        return firstNamed(new ArrayList<>(new TreeSet<>(names)));
    }

    /** At most {@value #MAX_NAMED} of the items, in their order, then how many more. */
    static String firstNamed(List<String> items) {
        String shown = String.join(", ", items.subList(0, Math.min(MAX_NAMED, items.size())));
        return items.size() > MAX_NAMED ? shown + " and " + (items.size() - MAX_NAMED) + " more" : shown;
    }

    /** {@code ok      name  message}: one line, as the doctor command prints it. */
    public String line() {
        return String.format("%-8s %-18s %s", status.name().toLowerCase(java.util.Locale.ROOT), name, message);
    }

    /** The worst status of some checks (OK for none). */
    public static Status worst(List<DoctorCheck> checks) {
        return checks.stream().map(DoctorCheck::status).max(Status::compareTo).orElse(Status.OK);
    }
}
