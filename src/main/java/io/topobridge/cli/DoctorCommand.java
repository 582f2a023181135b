package io.topobridge.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.diagnosis.Doctor;
import io.topobridge.core.diagnosis.DoctorCheck;
import io.topobridge.diagnosis.DoctorGatherer;
import io.topobridge.wiring.SettingsProducer;
import jakarta.inject.Inject;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code doctor}: the controller's installation checks, run from outside against the current kubeconfig's cluster.
 * One line per check; the exit code is the worst status.
 */
@Command(
        name = "doctor",
        mixinStandardHelpOptions = true,
        description = "Checks the cluster the current kubeconfig points at, as the controller's /api/doctor does: "
                + "Volcano's CRDs (v1.14 or later), its scheduler plugins, its own label discovery, the queues "
                + "workloads name, the HyperNode forest, the bridge's webhook configurations and GPU nodes outside "
                + "every topology tree. Settings come from the same topobridge.* configuration as the controller's. "
                + "Prints one line per check.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every check passed", "1:warnings", "2:failures (or the API server could not be asked)"})
public class DoctorCommand implements Callable<Integer> {

    @Inject
    KubernetesClient client;

    @Inject
    SettingsProducer settings;

    @Override
    public Integer call() {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try {
            var webhook = settings.webhook(Objects.requireNonNullElse(client.getNamespace(), "default"));
            var gatherer = new DoctorGatherer(client, settings.doctor(webhook));
            List<DoctorCheck> checks = Doctor.run(gatherer.gather(gatherer.listing()));
            checks.forEach(c -> out.println(c.line()));
            return DoctorCheck.worst(checks).exitCode();
        } catch (KubernetesClientException e) {
            System.err.println("error: cannot ask the API server " + client.getMasterUrl() + ": "
                    + (e.getCode() > 0 ? "HTTP " + e.getCode() + " " : "") + e.getMessage());
            return 2;
        }
    }
}
