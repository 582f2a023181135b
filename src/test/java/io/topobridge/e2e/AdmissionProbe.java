package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks the API server, in a loop, for admissions that only the bridge's webhooks answer right, with dry runs (the
 * webhooks have no side effects, so the API server calls them for dry runs too): a pod of a gang must come back tied
 * to the gang's PodGroup (pod webhook), and a Deployment naming a tier that does not exist must be refused (workload
 * webhook). With the chart's {@code failurePolicy: Ignore} a webhook that does not answer shows as an untied pod or an
 * accepted Deployment: each is counted as a failure, with what happened.
 */
final class AdmissionProbe implements AutoCloseable {

    static final String GROUP_NAME = "scheduling.k8s.io/group-name";
    private static final Duration PAUSE = Duration.ofMillis(200);

    private final KubernetesClient client;
    private final Pod pod;
    private final String podGroup;
    private final Deployment refused;
    private final String badTier;
    private final Repeating loop;
    private int podTies;
    private int workloadRefusals;
    private final List<String> failures = new ArrayList<>();

    /**
     * Probes with {@code pod} (a pod of the gang {@code podGroup}, as its ReplicaSet would make it) and {@code refused}
     * (a workload whose tier {@code badTier} no topology has).
     */
    AdmissionProbe(KubernetesClient client, Pod pod, String podGroup, Deployment refused, String badTier) {
        this.client = client;
        this.pod = pod;
        this.podGroup = podGroup;
        this.refused = refused;
        this.badTier = badTier;
        this.loop = new Repeating("admission-probe", PAUSE, () -> {
            probePod();
            probeWorkload();
        });
    }

    private void probePod() {
        String outcome;
        try {
            Pod admitted = client.pods().resource(pod).dryRun().create();
            var annotations = admitted.getMetadata().getAnnotations();
            String tie = annotations == null ? null : annotations.get(GROUP_NAME);
            outcome = podGroup.equals(tie) ? null : "pod admitted with group-name " + tie;
        } catch (KubernetesClientException e) {
            outcome = "pod create failed: " + e.getMessage();
        }
        record(outcome, true);
    }

    private void probeWorkload() {
        String outcome;
        try {
            client.apps().deployments().resource(refused).dryRun().create();
            outcome = "Deployment with tier " + badTier + " admitted";
        } catch (KubernetesClientException e) {
            String message = String.valueOf(e.getMessage());
            outcome = message.contains("denied the request") && message.contains(badTier)
                    ? null
                    : "Deployment refused for another reason: " + e.getMessage();
        }
        record(outcome, false);
    }

    private synchronized void record(String failure, boolean pod) {
        if (failure != null) {
            failures.add(failure);
        } else if (pod) {
            podTies++;
        } else {
            workloadRefusals++;
        }
    }

    /** Pods the pod webhook tied to their gang. */
    synchronized int podTies() {
        return podTies;
    }

    /** Workloads the workload webhook refused. */
    synchronized int workloadRefusals() {
        return workloadRefusals;
    }

    /** What went wrong, one line per failed probe. */
    synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    @Override
    public void close() {
        loop.close();
    }
}
