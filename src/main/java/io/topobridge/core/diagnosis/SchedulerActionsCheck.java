package io.topobridge.core.diagnosis;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** The doctor's {@code scheduler-actions} check: the scheduler's actions, as Volcano reads and runs them. */
final class SchedulerActionsCheck {

    /** The actions Volcano v1.15 knows; any other name makes it refuse the whole configuration. */
    static final Set<String> KNOWN_ACTIONS =
            Set.of("enqueue", "allocate", "backfill", "preempt", "reclaim", "gangpreempt", "gangreclaim", "shuffle");

    /**
     * Actions Volcano v1.15 added (gang-aware eviction): a v1.14 scheduler knows no action of that name, so it refuses
     * the whole configuration (docs/compatibility.md).
     */
    static final Set<String> ACTIONS_SINCE_V1_15 = Set.of("gangpreempt", "gangreclaim");

    /** The actions the installation guide recommends for gangs, in the order Volcano should run them. */
    static final List<String> RECOMMENDED_ACTIONS = List.of("enqueue", "allocate", "backfill");

    private static final String REFUSED = ": Volcano refuses the whole configuration and keeps the one it had (at"
            + " start its built-in one, without network-topology-aware)";

    /**
     * The scheduler's {@code actions}: Volcano runs them in the order written, splitting on commas; an unknown name
     * (or none at all) makes it refuse the whole file and keep the configuration it had (its built-in one at start,
     * which has no {@code network-topology-aware}). Without {@code allocate} no pod is placed; without
     * {@code enqueue} allocate admits every PodGroup at once, whether or not its queue has room for its
     * minResources; without {@code backfill} pods that request nothing are never placed. {@code preempt} and
     * {@code reclaim} are not part of the recommendation and are only named.
     */
    static DoctorCheck.Result check(DoctorInputs in) {
        ObjectRef ref = in.schedulerConfigMap();
        String where = "ConfigMap " + ref.namespace() + "/" + ref.name();
        JsonNode root = in.schedulerRoot();
        if (root == null) {
            return DoctorCheck.ok("no scheduler configuration to read actions from (see scheduler-config)");
        }
        JsonNode actions = root.path("actions");
        List<String> names = actions.isTextual()
                ? Arrays.stream(actions.asText().split(",", -1))
                        .map(String::trim)
                        .toList()
                : List.of();
        List<String> unknown = names.stream()
                .filter(n -> !KNOWN_ACTIONS.contains(n))
                .map(n -> n.isEmpty() ? "an empty name" : UserText.quote(n))
                .distinct()
                .toList();
        if (!actions.isTextual() || names.stream().allMatch(String::isEmpty)) {
            return DoctorCheck.problem(
                    DoctorCheck.Status.FAILURE,
                    DoctorReason.SCHEDULER_ACTION_MISSING,
                    ref,
                    where + " sets no actions (recommended: \"" + String.join(", ", RECOMMENDED_ACTIONS) + "\")"
                            + REFUSED);
        }
        if (!unknown.isEmpty()) {
            return DoctorCheck.problem(
                    DoctorCheck.Status.FAILURE,
                    DoctorReason.SCHEDULER_ACTION_MISSING,
                    ref,
                    where + " names unknown action(s) " + DoctorCheck.named(unknown) + REFUSED);
        }
        return recommended(ref, where, names);
    }

    /** How actions Volcano accepts compare with the recommended ones. */
    private static DoctorCheck.Result recommended(ObjectRef ref, String where, List<String> names) {
        List<String> missing =
                RECOMMENDED_ACTIONS.stream().filter(a -> !names.contains(a)).toList();
        List<String> problems = new ArrayList<>();
        if (missing.contains("allocate")) {
            problems.add("no allocate: no pod is placed at all");
        }
        if (missing.contains("enqueue")) {
            problems.add("no enqueue: allocate admits every PodGroup at once, whether or not its queue has room for its"
                    + " minResources");
        } else if (!missing.contains("allocate") && names.indexOf("enqueue") > names.indexOf("allocate")) {
            problems.add("enqueue runs after allocate: a gang admitted waits a whole scheduling cycle more");
        }
        if (missing.contains("backfill")) {
            problems.add("no backfill: pods that request no resources are never placed");
        }
        List<String> extra = names.stream()
                .filter(n -> !RECOMMENDED_ACTIONS.contains(n))
                .distinct()
                .toList();
        String also = extra.isEmpty() ? "" : "; it also runs " + String.join(", ", extra);
        List<String> newer =
                extra.stream().filter(ACTIONS_SINCE_V1_15::contains).toList();
        if (!newer.isEmpty()) {
            also += " (" + String.join(", ", newer) + ": Volcano v1.15 or later; a v1.14 scheduler refuses the whole"
                    + " configuration and keeps the one it had)";
        }
        if (problems.isEmpty()) {
            String message =
                    where + " runs " + String.join(", ", RECOMMENDED_ACTIONS) + " as recommended for gangs" + also;
            return newer.isEmpty()
                    ? DoctorCheck.ok(message)
                    : DoctorCheck.problem(
                            DoctorCheck.Status.WARNING, DoctorReason.SCHEDULER_ACTION_MISSING, ref, message);
        }
        return DoctorCheck.problem(
                missing.contains("allocate") ? DoctorCheck.Status.FAILURE : DoctorCheck.Status.WARNING,
                DoctorReason.SCHEDULER_ACTION_MISSING,
                ref,
                where + " actions \""
                        + String.join(", ", names.stream().distinct().toList())
                        + "\" miss what gangs need (recommended: \"" + String.join(", ", RECOMMENDED_ACTIONS) + "\"): "
                        + String.join("; ", problems) + also);
    }
}
