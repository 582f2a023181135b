package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.topobridge.devcluster.RealDevCluster;
import io.topobridge.manifest.ManifestReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The process {@link RealDevCluster} starts for {@code quarkus:dev} with {@code topobridge.dev-cluster.kind=real}:
 * builds the components if needed, starts the real cluster, seeds it from a folder like the demo (nodes with their
 * capacity; the CRDs in that folder are skipped, the cluster has the real ones, and so are objects a controller
 * makes, which the real controllers make here), points the bridge's webhook
 * Service at the dev process's port, prints {@code KUBECONFIG=<file>} and runs until its standard input closes.
 *
 * <p>Arguments: {@code <seed folder> <webhook port> <webhook Service name> <its namespace>}.
 */
public final class DevRealCluster {

    private DevRealCluster() {}

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Exception e) {
            // the client's threads would keep this process alive with its cluster: exit, so the shutdown hook stops it
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws IOException, InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: DevRealCluster <seed folder> <webhook port> <webhook Service> <namespace>");
            System.exit(2);
        }
        Path seed = Path.of(args[0]);
        int port = Integer.parseInt(args[1]);
        Process build = new ProcessBuilder("bash", "src/test/go/build.sh", "binaries", "target/e2e")
                .inheritIO()
                .start();
        if (build.waitFor() != 0) {
            System.err.println("building the real cluster's components failed (exit " + build.exitValue() + ")");
            System.exit(1);
        }
        RealCluster cluster = RealCluster.get();
        KubernetesClient client = cluster.client();
        // nodes and namespaces first; workloads once the bridge's pod webhook answers, so that their pods are tied
        // to their gangs at creation (a pod admitted without the bridge would run outside its gang for good)
        int seeded = seed(client, seed, true);
        String namespace = args[3];
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .endMetadata()
                        .build())
                .createOr(NonDeletingOperation::update);
        var services = client.services().inNamespace(namespace);
        services.withName(args[2]).delete();
        cluster.waitFor(
                "the old webhook Service to go",
                java.time.Duration.ofSeconds(30),
                () -> services.withName(args[2]).get() == null);
        var service = RealCluster.externalName(args[2], port);
        services.resource(service).create();
        System.out.printf(
                "real cluster up in %d ms at %s, %d objects seeded from %s, webhook Service %s/%s -> "
                        + "localhost:%d, logs in %s%n",
                cluster.startup().toMillis(),
                cluster.url(),
                seeded,
                seed,
                namespace,
                args[2],
                port,
                cluster.runDir().resolve("logs"));
        System.out.println(RealDevCluster.READY_PREFIX
                + cluster.kubeconfig(RealCluster.BRIDGE).toAbsolutePath());
        System.out.flush();
        cluster.waitFor(
                "the bridge's pod webhook registered and answering on port " + port,
                java.time.Duration.ofMinutes(10),
                () -> webhookServed(client, args[2], namespace, port));
        System.out.printf("the bridge's webhook answers: %d workload objects seeded%n", seed(client, seed, false));
        // until the dev process ends (its end closes our input), then the shutdown hook stops the cluster
        while (System.in.read() >= 0) {
            // nothing to read; the parent never writes
        }
        System.exit(0);
    }

    /** Whether a webhook configuration names the bridge's Service and the dev process listens on its port. */
    private static boolean webhookServed(KubernetesClient client, String service, String namespace, int port) {
        boolean registered =
                client.admissionRegistration().v1().mutatingWebhookConfigurations().list().getItems().stream()
                        .flatMap(c -> c.getWebhooks().stream())
                        .anyMatch(w -> w.getClientConfig().getService() != null
                                && service.equals(
                                        w.getClientConfig().getService().getName())
                                && namespace.equals(
                                        w.getClientConfig().getService().getNamespace())
                                && w.getClientConfig().getCaBundle() != null
                                && !w.getClientConfig().getCaBundle().isEmpty());
        if (!registered) {
            return false;
        }
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Creates what {@code folder} holds, as the demo's seeding does: the nodes and namespaces ({@code infrastructure})
     * or everything else; returns the number of objects.
     */
    static int seed(KubernetesClient client, Path folder, boolean infrastructure) {
        var read = new ManifestReader(client.getKubernetesSerialization()).read(List.of(folder));
        if (!read.findings().isEmpty()) {
            throw new IllegalStateException("unreadable seed manifests: " + read.findings());
        }
        Set<String> namespaces = new TreeSet<>();
        int count = 0;
        for (HasMetadata object : read.objects()) {
            if (object instanceof CustomResourceDefinition) {
                continue;
            }
            if (object instanceof Namespace ns) {
                namespaces.add(ns.getMetadata().getName());
                if (infrastructure) {
                    client.resource(ns).createOr(NonDeletingOperation::update);
                    count++;
                }
            }
        }
        for (HasMetadata object : read.objects()) {
            if (object instanceof CustomResourceDefinition || object instanceof Namespace) {
                continue;
            }
            if (object.getMetadata().getOwnerReferences() != null
                    && !object.getMetadata().getOwnerReferences().isEmpty()) {
                // made by a controller (e.g. AIBrix's RoleSets of a StormService): the real one makes it here
                if (!infrastructure) {
                    System.out.println("not seeded, its controller makes it: " + object.getKind() + " "
                            + object.getMetadata().getName());
                }
                continue;
            }
            if (object instanceof Node != infrastructure) {
                continue;
            }
            if (object instanceof Node node) {
                if (client.nodes().withName(node.getMetadata().getName()).get() == null) {
                    Nodes.create(client, node);
                }
            } else {
                if (object.getMetadata().getNamespace() == null
                        && !Set.of("Queue", "HyperNode", "PriorityClass").contains(object.getKind())) {
                    object.getMetadata().setNamespace("default");
                }
                String ns = object.getMetadata().getNamespace();
                if (ns != null && namespaces.add(ns)) {
                    client.resource(new NamespaceBuilder()
                                    .withNewMetadata()
                                    .withName(ns)
                                    .endMetadata()
                                    .build())
                            .createOr(NonDeletingOperation::update);
                }
                try {
                    client.resource(object).createOr(NonDeletingOperation::update);
                } catch (KubernetesClientException e) {
                    String message =
                            e.getStatus() == null ? null : e.getStatus().getMessage();
                    if (message == null || !message.startsWith("admission webhook ")) {
                        throw e;
                    }
                    // an example a webhook refuses by design (e.g. a gang too big for its hard tier): say so, go on
                    System.out.println("refused at admission: " + object.getKind() + " "
                            + object.getMetadata().getName() + ": " + message);
                    continue;
                }
            }
            count++;
        }
        return count;
    }
}
