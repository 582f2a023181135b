package io.topobridge.controller.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.topobridge.cache.KindRegistry;
import io.topobridge.devcluster.MockCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Mock-cluster helpers for the workload controller tests: the project's own workload CRDs, a KindRegistry. */
public final class TestClusters {

    public static final Path CRDS = Path.of("examples/crds");

    private TestClusters() {}

    /** Installs one of {@code examples/crds} and tells the registry, as CRD discovery would. */
    public static void installCrd(MockCluster cluster, KindRegistry registry, String crdName) {
        try (InputStream in = Files.newInputStream(CRDS.resolve(crdName + ".yaml"))) {
            CustomResourceDefinition crd = cluster.client()
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .load(in)
                    .item();
            CustomResourceDefinition stored = cluster.client().resource(crd).createOr(NonDeletingOperation::update);
            registry.update(crdName, stored);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A registry that knows Volcano's CRDs are installed (the mock has them). */
    public static KindRegistry registryWithVolcano(MockCluster cluster) {
        return registryWith(
                cluster,
                "podgroups.scheduling.volcano.sh",
                "queues.scheduling.volcano.sh",
                "hypernodes.topology.volcano.sh");
    }

    /** A registry that has seen the named CRDs as the mock holds them, and no other. */
    public static KindRegistry registryWith(MockCluster cluster, String... crdNames) {
        var registry = new KindRegistry(cluster.client());
        for (String name : crdNames) {
            seen(cluster, registry, name);
        }
        return registry;
    }

    /** Tells the registry the CRD {@code crdName} as the mock holds it, as CRD discovery would. */
    public static void seen(MockCluster cluster, KindRegistry registry, String crdName) {
        registry.update(
                crdName,
                cluster.client()
                        .apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(crdName)
                        .get());
    }

    public static <T extends HasMetadata> T create(MockCluster cluster, T object) {
        return cluster.client().resource(object).create();
    }
}
