package io.topobridge.core.recovery;

import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Says, for one running gang, what its domain's state means: a finding on each of its workloads and on its PodGroup
 * when the domain cannot give it back its missing pods ({@link RecoveryReason#DOMAIN_LOST},
 * {@link RecoveryReason#NO_ROOM_IN_DOMAIN}), or when no replacement can be made while a member is Terminating on a
 * node that is down ({@link RecoveryReason#REPLACEMENT_BLOCKED}), naming the domain, the pods and since when they have
 * waited. Nothing is said of a gang whose domain holds it or has room for its replacements (Volcano's turn). Pure.
 */
public final class GangRecovery {

    private GangRecovery() {}

    /**
     * @param namespace the gang's namespace
     * @param podGroup the gang's PodGroup
     * @param subjects the workloads its findings go to
     * @param domain the judgement of its domain (empty when the gang is not judged: not running, not hard)
     */
    public static List<Finding> findings(
            String namespace, String podGroup, List<ObjectRef> subjects, Optional<GangDomain> domain) {
        if (domain.isEmpty() || !domain.get().stuck()) {
            return List.of();
        }
        GangDomain d = domain.get();
        // the wait is said by when it began, so the message stays the same from one pass to the next
        String text = "gang " + podGroup + ": " + d.sentence();
        List<Finding> out = new ArrayList<>();
        for (ObjectRef subject : subjects) {
            out.add(warning(d.verdict(), subject, subject + ": " + text).withKey(podGroup));
        }
        ObjectRef pg = new ObjectRef("scheduling.volcano.sh/v1beta1", "PodGroup", namespace, podGroup, null);
        out.add(warning(d.verdict(), pg, pg + ": " + d.sentence()));
        return out;
    }

    private static Finding warning(GangDomain.Verdict verdict, ObjectRef subject, String message) {
        return switch (verdict) {
            case DOMAIN_LOST -> Finding.warning(RecoveryReason.DOMAIN_LOST, subject, message);
            case REPLACEMENT_BLOCKED -> Finding.warning(RecoveryReason.REPLACEMENT_BLOCKED, subject, message);
            default -> Finding.warning(RecoveryReason.NO_ROOM_IN_DOMAIN, subject, message);
        };
    }
}
