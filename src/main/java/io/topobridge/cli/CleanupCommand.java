package io.topobridge.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.apply.Applier;
import io.topobridge.controller.ControllerLifecycle;
import io.topobridge.core.Topobridge;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.PodGroup;
import io.topobridge.webhook.WebhookSettings;
import jakarta.inject.Inject;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cleanup}: removes from the cluster what the controller made, so an uninstall leaves nothing behind.
 * Helm runs it as a pre-delete hook. It first stops the controller (scales its Deployment to zero and waits for
 * its pods to go), because a running controller would make everything again; then it deletes the webhook
 * configurations, the generated certificate Secret, the leader Lease and, when asked, the HyperNodes and
 * PodGroups. Only objects carrying {@code app.kubernetes.io/managed-by: topobridge} are deleted (the Lease,
 * which carries no labels, only once no controller holds it).
 */
@Command(
        name = "cleanup",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Removes what the controller made: the webhook configurations, the generated TLS Secret, "
                + "the leader Lease and (--managed-objects=delete) every HyperNode and PodGroup labelled "
                + "app.kubernetes.io/managed-by=topobridge. Objects without that label are never deleted. Names "
                + "come from the same topobridge.* configuration as the controller's. Prints one line per object.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:everything the controller made is gone (or kept, as asked)",
            "1:some step failed (the others still ran); see stderr",
            "2:usage error"
        })
public class CleanupCommand extends SettingsCommand implements Callable<Integer> {

    /** What happens to the HyperNodes and PodGroups the bridge made. */
    public enum ManagedObjects {
        delete,
        keep
    }

    private static final Duration POLL = Duration.ofMillis(500);

    @Inject
    ControllerLifecycle.Election election;

    @Inject
    KubernetesClient client;

    @Inject
    Applier applier;

    @Option(
            names = "--managed-objects",
            required = true,
            paramLabel = "delete|keep",
            description = "Delete or keep the HyperNodes and PodGroups the bridge made (those labelled "
                    + "app.kubernetes.io/managed-by=topobridge).")
    ManagedObjects managedObjects;

    @Option(
            names = "--stop-deployment",
            paramLabel = "NAME",
            description = "First scale this Deployment (the controller's, in the controller's namespace) to zero "
                    + "and wait until its pods are gone, so nothing is made again behind the cleanup.")
    String deployment;

    @Option(
            names = "--wait",
            paramLabel = "SECONDS",
            defaultValue = "120",
            description = "How long to wait for the controller's pods to stop (default: ${DEFAULT-VALUE}).")
    int waitSeconds;

    private final List<String> errors = new ArrayList<>();
    private PrintStream out;

    @Override
    public Integer call() {
        if (waitSeconds < 0) {
            throw usage("--wait must not be negative");
        }
        WebhookSettings webhook;
        try {
            webhook = settings.webhook(client);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (deployment != null) {
            step(
                    "stop Deployment " + webhook.namespace() + "/" + deployment,
                    () -> stopDeployment(webhook.namespace()));
        }
        String configuration = webhook.configurationName();
        var registration = client.admissionRegistration().v1();
        deleteIfOurs(
                "MutatingWebhookConfiguration " + configuration,
                () -> registration
                        .mutatingWebhookConfigurations()
                        .withName(configuration)
                        .get());
        deleteIfOurs(
                "ValidatingWebhookConfiguration " + configuration,
                () -> registration
                        .validatingWebhookConfigurations()
                        .withName(configuration)
                        .get());
        var secrets = client.secrets().inNamespace(webhook.namespace());
        deleteIfOurs(
                "Secret " + webhook.namespace() + "/" + webhook.tls().secretName(),
                () -> secrets.withName(webhook.tls().secretName()).get());
        step("Lease", this::deleteLease);
        if (managedObjects == ManagedObjects.delete) {
            step("PodGroups", () -> deleteAll(PodGroup.class));
            step("HyperNodes", () -> deleteAll(HyperNode.class));
        } else {
            out.println("kept the HyperNodes and PodGroups the bridge made (--managed-objects=keep)");
        }
        errors.forEach(System.err::println);
        return errors.isEmpty() ? 0 : 1;
    }

    private void step(String what, Runnable action) {
        try {
            action.run();
        } catch (KubernetesClientException e) {
            errors.add("error: " + what + ": " + (e.getCode() > 0 ? "HTTP " + e.getCode() + " " : "")
                    + Objects.requireNonNullElse(
                            e.getStatus() != null ? e.getStatus().getMessage() : null, e.getMessage()));
        } catch (RuntimeException e) {
            errors.add("error: " + what + ": " + e.getMessage());
        }
    }

    /** Scales the controller to zero (one server-side apply of {@code spec.replicas}) and waits for its pods to go. */
    private void stopDeployment(String namespace) {
        Deployment current = client.apps()
                .deployments()
                .inNamespace(namespace)
                .withName(deployment)
                .get();
        if (current == null) {
            out.println("absent Deployment " + namespace + "/" + deployment);
            return;
        }
        Deployment scaled = new DeploymentBuilder()
                .withNewMetadata()
                .withName(deployment)
                .withNamespace(namespace)
                .endMetadata()
                .withNewSpec()
                .withReplicas(0)
                .endSpec()
                .build();
        applier.apply(scaled, current);
        Map<String, String> selector = current.getSpec().getSelector().getMatchLabels();
        Instant deadline = Instant.now().plus(Duration.ofSeconds(waitSeconds));
        while (true) {
            List<String> running = client.pods().inNamespace(namespace).withLabels(selector).list().getItems().stream()
                    .filter(CleanupCommand::ownedByReplicaSet)
                    .map(p -> p.getMetadata().getName())
                    .sorted()
                    .toList();
            if (running.isEmpty()) {
                out.println("stopped Deployment " + namespace + "/" + deployment);
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("its pods " + running + " still run after " + waitSeconds
                        + "s; they may make objects again after this cleanup");
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the controller to stop", e);
            }
        }
    }

    private static boolean ownedByReplicaSet(Pod pod) {
        List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
        return owners != null
                && owners.stream()
                        .anyMatch(o -> "ReplicaSet".equals(o.getKind()) && Boolean.TRUE.equals(o.getController()));
    }

    private void deleteIfOurs(String what, Supplier<HasMetadata> read) {
        step(what, () -> {
            HasMetadata current = read.get();
            if (current == null) {
                out.println("absent " + what);
            } else if (!Topobridge.managed(current)) {
                out.println("kept " + what + " (not made by topobridge: no " + Topobridge.MANAGED_BY_LABEL + "="
                        + Topobridge.MANAGED_BY + ")");
            } else if (applier.delete(current, Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)) {
                out.println("deleted " + what);
            }
        });
    }

    private void deleteAll(Class<? extends HasMetadata> type) {
        String kind = HasMetadata.getKind(type);
        List<? extends HasMetadata> found;
        try {
            found = client.resources(type)
                    .inAnyNamespace()
                    .withLabel(Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)
                    .list()
                    .getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                out.println("no " + kind + "s: the " + kind + " CRD is not installed");
                return;
            }
            throw e;
        }
        List<? extends HasMetadata> sorted = found.stream()
                .sorted(Comparator.comparing((HasMetadata o) ->
                                Objects.requireNonNullElse(o.getMetadata().getNamespace(), ""))
                        .thenComparing(o -> o.getMetadata().getName()))
                .toList();
        int deleted = 0;
        for (HasMetadata object : sorted) {
            // the label selector is the server's; the applier checks the label again before deleting
            if (applier.delete(object, Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)) {
                out.println("deleted " + kind + " " + Applier.describe(object));
                deleted++;
            }
        }
        out.println("deleted " + deleted + " " + kind + (deleted == 1 ? "" : "s"));
    }

    /** The leader Lease carries no labels (the leader elector makes it); it is deleted only once nobody holds it. */
    private void deleteLease() {
        String namespace = Objects.requireNonNullElse(
                election.leaseNamespace(), Objects.requireNonNullElse(System.getenv("POD_NAMESPACE"), "default"));
        var resource = client.leases().inNamespace(namespace).withName(election.leaseName());
        Lease lease = resource.get();
        String name = namespace + "/" + election.leaseName();
        if (lease == null) {
            out.println("absent Lease " + name);
            return;
        }
        var spec = lease.getSpec();
        String holder = spec == null ? null : spec.getHolderIdentity();
        boolean held = holder != null
                && !holder.isEmpty()
                && spec.getRenewTime() != null
                && spec.getLeaseDurationSeconds() != null
                && spec.getRenewTime()
                        .toInstant()
                        .plusSeconds(spec.getLeaseDurationSeconds())
                        .isAfter(Instant.now());
        if (held) {
            out.println("kept Lease " + name + " (held by " + holder + ": a controller still runs)");
            return;
        }
        resource.delete();
        out.println("deleted Lease " + name);
    }
}
