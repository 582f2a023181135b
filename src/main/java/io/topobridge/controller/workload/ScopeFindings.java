package io.topobridge.controller.workload;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.findings.FindingsRegistry;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Publishes each gang scope's findings to the registry, replacing what the scope said before: the objects it was read
 * from and every object it had findings on are covered, so a finding that went away (or moved to another object of
 * the scope) is resolved. Scopes with findings are remembered, so a full pass revisits them even when their workloads
 * are gone. Used by one thread (the workload controller's batch worker).
 */
final class ScopeFindings {

    private final FindingsRegistry registry;
    private final String source;
    private final Map<GangScope, Set<String>> published = new HashMap<>();

    ScopeFindings(FindingsRegistry registry, String source) {
        this.registry = registry;
        this.source = source;
    }

    /**
     * @param holdTiers whether "no tier is known" is not news yet (the first topology pass has not come: it brings
     *     the tiers), so those findings are left out
     */
    void publish(GangScope scope, List<ObjectRef> subjects, List<Finding> found, boolean holdTiers) {
        if (holdTiers) {
            found = found.stream()
                    .filter(f -> f.reason() != WorkloadReason.TIERS_UNKNOWN)
                    .toList();
        }
        Set<String> covered = new LinkedHashSet<>(published.getOrDefault(scope, Set.of()));
        subjects.forEach(s -> covered.add(s.toString()));
        found.forEach(f -> covered.add(f.object().toString()));
        if (!covered.isEmpty()) {
            registry.publish(source, covered, found);
        }
        if (found.isEmpty()) {
            published.remove(scope);
        } else {
            Set<String> withFindings = new LinkedHashSet<>();
            found.forEach(f -> withFindings.add(f.object().toString()));
            published.put(scope, withFindings);
        }
    }

    /** The scopes whose findings are published now. */
    Set<GangScope> scopes() {
        return Set.copyOf(published.keySet());
    }
}
