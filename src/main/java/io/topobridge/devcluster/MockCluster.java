package io.topobridge.devcluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.topobridge.manifest.ManifestReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Set;

/**
 * An in-process Kubernetes API server on loopback: the fabric8 CRUD mock with server-side apply and CRDs
 * required for custom resources ({@link ApplyingCrudDispatcher}). Used by the embedded
 * demo cluster and the integration tests.
 */
public final class MockCluster implements AutoCloseable {

    /** The CRD manifests shipped in {@code crds/} (on the classpath under the same folder). */
    public static final List<String> VOLCANO_CRDS = List.of(
            "crds/scheduling.volcano.sh_podgroups.yaml",
            "crds/scheduling.volcano.sh_queues.yaml",
            "crds/topology.volcano.sh_hypernodes.yaml");

    // one line per request at INFO drowns everything else (failures still show); the logger is held here
    // because log managers keep loggers weakly and a collected one forgets its level
    private static final java.util.logging.Logger MOCK_SERVER_LOG =
            java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    private MockCluster(KubernetesMockServer server) {
        this.server = server;
        this.client = server.createClient();
    }

    /** Starts an empty server answering through {@code dispatcher}, on a free loopback port. */
    public static MockCluster start(ApplyingCrudDispatcher dispatcher) {
        MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
        var server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        return new MockCluster(server);
    }

    public KubernetesClient client() {
        return client;
    }

    /** Base URL of the API server, for {@code quarkus.kubernetes-client.api-server-url}. */
    public String url() {
        return client.getConfiguration().getMasterUrl();
    }

    /** Installs Volcano's PodGroup, Queue and HyperNode CRDs from the project's own manifests. */
    public MockCluster installVolcanoCrds() {
        VOLCANO_CRDS.forEach(this::installCrdResource);
        return this;
    }

    /** Installs a CRD manifest from the classpath. */
    public MockCluster installCrdResource(String resource) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("CRD manifest not on the classpath: " + resource);
            }
            CustomResourceDefinition crd = client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .load(in)
                    .item();
            client.resource(crd).createOr(NonDeletingOperation::update);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * Volcano's scheduler ConfigMap as an installation that follows the README has it (gang and
     * network-topology-aware enabled), so the demo shows hard topology as enforced.
     */
    public void seedSchedulerConfig(String namespace, String name, String key) {
        createNamespace(namespace);
        client.resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                        .withNewMetadata()
                        .withNamespace(namespace)
                        .withName(name)
                        .endMetadata()
                        .addToData(key, DEMO_SCHEDULER_CONF)
                        .build())
                .createOr(NonDeletingOperation::update);
    }

    /** The scheduler configuration of the README's install section. */
    public static final String DEMO_SCHEDULER_CONF = """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
              - name: conformance
            - plugins:
              - name: drf
              - name: predicates
              - name: proportion
              - name: nodeorder
              - name: binpack
              - name: network-topology-aware
            """;

    /**
     * Creates every object in the YAML files under {@code folder}: CRDs first, then namespaces (made for any
     * namespace an object names), then the rest; objects without a namespace that need one go to
     * {@code default}. Returns the objects created.
     */
    public List<HasMetadata> seed(Path folder) {
        var read = new ManifestReader(client.getKubernetesSerialization()).read(List.of(folder));
        if (!read.findings().isEmpty()) {
            throw new IllegalStateException("unreadable seed manifests: " + read.findings());
        }
        List<HasMetadata> ordered = new ArrayList<>(read.objects());
        // CRDs first, the rest in the order read (the sort is stable)
        ordered.sort(Comparator.comparing(o -> !(o instanceof CustomResourceDefinition)));
        Set<String> namespaces = new java.util.TreeSet<>();
        for (HasMetadata object : ordered) {
            if (object instanceof CustomResourceDefinition crd) {
                client.resource(crd).createOr(NonDeletingOperation::update);
                continue;
            }
            if (object instanceof Namespace ns) {
                namespaces.add(ns.getMetadata().getName());
                client.resource(ns).createOr(NonDeletingOperation::update);
                continue;
            }
            boolean namespaced = !(object instanceof io.fabric8.kubernetes.api.model.Node)
                    && !"HyperNode".equals(object.getKind())
                    && !"Queue".equals(object.getKind())
                    && !"PriorityClass".equals(object.getKind());
            if (namespaced) {
                if (object.getMetadata().getNamespace() == null) {
                    object.getMetadata().setNamespace("default");
                }
                String ns = object.getMetadata().getNamespace();
                if (namespaces.add(ns)) {
                    createNamespace(ns);
                }
            }
            client.resource(object).createOr(NonDeletingOperation::update);
        }
        return ordered;
    }

    private void createNamespace(String name) {
        client.resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .createOr(NonDeletingOperation::update);
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
