package io.topobridge.controller.workload;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.apply.Applier;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.Topobridge;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.reconcile.Outcome;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.VolcanoObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Carries out the writes the reconciler planned for one scope, through the one writer: applies, deletes of the
 * bridge's own PodGroups, releases of the fields it held on another controller's, and the pod deletes that restart a
 * gang whose domain is lost. A refusal by the API server (a 4xx other than a conflict or throttling) becomes a finding
 * on the scope's workloads rather than a retry loop; any other failure is thrown, and the batch is retried with
 * backoff.
 */
final class PodGroupWriter {

    private static final Logger LOG = Logger.getLogger(PodGroupWriter.class);

    private final WorkloadCaches lookup;
    private final Applier applier;
    private final Consumer<String> restartFailed;

    /** {@code restartFailed}: told the gang ({@code namespace/podGroup}) of a restart that could not be carried out. */
    PodGroupWriter(WorkloadCaches lookup, Applier applier, Consumer<String> restartFailed) {
        this.lookup = lookup;
        this.applier = applier;
        this.restartFailed = restartFailed;
    }

    /** Carries out the outcome's steps in order; returns the findings the API server's refusals gave. */
    List<Finding> carryOut(Outcome outcome) {
        List<Finding> refused = new ArrayList<>();
        for (PodGroupChanges.Step step : outcome.steps()) {
            if (step instanceof PodGroupChanges.Apply apply) {
                write(apply.podGroup(), outcome, refused);
            } else if (step instanceof PodGroupChanges.Delete delete) {
                PodGroup current = lookup.podGroup(delete.namespace(), delete.name());
                if (current != null && applier.delete(current, Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)) {
                    LOG.infof(
                            "deleted PodGroup %s/%s: %s no longer wants it",
                            delete.namespace(), delete.name(), outcome.scope());
                }
            } else if (step instanceof PodGroupChanges.Release release) {
                release(release.namespace(), release.name());
            } else if (step instanceof PodGroupChanges.RestartGang restart) {
                restart(restart.restart());
            }
        }
        return refused;
    }

    /**
     * Restarts a gang whose domain is lost: deletes its pods (a group's leader) by uid; its controller makes them
     * again. A failure is told, so the restart is forgotten and the retried batch decides it again.
     */
    private void restart(DomainLossRestarts.Restart restart) {
        List<String> deleted = new ArrayList<>();
        try {
            for (DomainLossRestarts.Victim pod : restart.pods()) {
                if (applier.deletePod(restart.namespace(), pod.name(), pod.uid())) {
                    deleted.add(pod.name());
                }
            }
        } catch (KubernetesClientException e) {
            restartFailed.accept(restart.key());
            throw e;
        }
        LOG.infof("%s (pods deleted now: %s)", restart.message(), String.join(", ", deleted));
    }

    /** Gives back the fields the bridge holds on another controller's PodGroup. */
    void release(String namespace, String name) {
        PodGroup current = lookup.podGroup(namespace, name);
        if (current != null && applier.release(current, PodGroup::new)) {
            LOG.infof("released the topology fields of PodGroup %s/%s", namespace, name);
        }
    }

    private void write(DesiredPodGroup desired, Outcome outcome, List<Finding> refused) {
        PodGroup current = lookup.podGroup(desired.namespace(), desired.name());
        try {
            Applier.Outcome written = applier.apply(VolcanoObjects.podGroup(desired), current);
            if (written != Applier.Outcome.UNCHANGED) {
                LOG.infof(
                        "%s PodGroup %s/%s (%s)",
                        written == Applier.Outcome.CREATED ? "created" : "updated",
                        desired.namespace(),
                        desired.name(),
                        desired.ownership() == DesiredPodGroup.Ownership.OWNED ? "owned" : "topology fields only");
            }
        } catch (KubernetesClientException e) {
            int code = e.getCode();
            if (code < 400 || code >= 500 || code == 409 || code == 429) {
                throw e;
            }
            String reason = e.getStatus() != null && e.getStatus().getMessage() != null
                    ? e.getStatus().getMessage()
                    : e.getMessage();
            refused.addAll(PodGroupChanges.about(
                    outcome.translation(),
                    WorkloadReason.APPLY_REFUSED,
                    desired.name(),
                    "the API server refused PodGroup " + desired.name() + " (HTTP " + code + "): "
                            + UserText.excerpt(reason)));
        }
    }
}
