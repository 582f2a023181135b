package io.topobridge.cli;

import io.topobridge.api.FindingView;
import io.topobridge.core.diagnosis.Doctor;
import io.topobridge.core.diagnosis.DoctorCheck;
import io.topobridge.diagnosis.DoctorGatherer;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code doctor}: the controller's installation checks, run from outside against a kubeconfig's cluster. One line
 * per check ({@code -o json}: one document with each check's findings); the exit code is the worst status.
 */
@Command(
        name = "doctor",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Checks the cluster a kubeconfig points at, as the controller's /api/doctor does, one line per"
                + " check: volcano-crds (Volcano's CRDs, v1.14 or later), scheduler-config (the scheduler plugins that"
                + " enforce topology and sub-gangs), scheduler-actions (the actions Volcano runs), label-discovery"
                + " (Volcano's own label discovery), queues (those the workloads name exist and are open),"
                + " hypernode-forest, webhooks (the bridge's webhook configurations and their CA), gpu-nodes (GPU"
                + " nodes outside every topology tree), node-room (nodes that take no new pods and the running"
                + " gangs that lose room by them) and kubernetes-apis (optional Kubernetes APIs the cluster does not"
                + " serve, and what is off without them). Settings come from the same topobridge.* configuration as the"
                + " controller's.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every check passed",
            "1:warnings",
            "2:failures, the API server could not be asked, no kubeconfig found, or a usage error"
        })
public class DoctorCommand extends SettingsCommand implements Callable<Integer> {

    @Mixin
    ClusterAccess access;

    @Option(
            names = {"-n", "--namespace"},
            paramLabel = "NAMESPACE",
            description = "The namespace the bridge runs in, for its webhook checks (default: the context's).")
    String namespace;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = OutputFormat.TEXT,
            description = "text (default: one line per check) or json (the checks with their findings: reason,"
                    + " severity, object, message).")
    String output;

    @Override
    public Integer call() {
        OutputFormat.check(spec, output, OutputFormat.TEXT, OutputFormat.JSON);
        return access.run(client -> {
            var webhook = settings.webhook(ClusterAccess.namespace(namespace, client));
            var gatherer = new DoctorGatherer(client, settings.doctor(webhook));
            List<DoctorCheck> checks = Doctor.run(gatherer.gather(gatherer.listing()));
            PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
            if (OutputFormat.JSON.equals(output)) {
                out.println(OutputFormat.json(document(checks)));
            } else {
                checks.forEach(c -> out.println(c.line()));
            }
            return DoctorCheck.worst(checks).exitCode();
        });
    }

    /** The document {@code -o json} prints: the worst status and each check with the findings behind it. */
    record Document(String status, List<Check> checks) {}

    record Check(String name, String status, String message, List<FindingView> findings) {}

    static Document document(List<DoctorCheck> checks) {
        return new Document(
                DoctorCheck.worst(checks).name().toLowerCase(Locale.ROOT),
                checks.stream()
                        .map(c -> new Check(
                                c.name(),
                                c.status().name().toLowerCase(Locale.ROOT),
                                c.message(),
                                c.findings().stream().map(FindingView::of).toList()))
                        .toList());
    }
}
