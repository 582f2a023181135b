package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.testing.wrappers.LeaderWorkerSetWrapper;
import io.topobridge.testing.wrappers.StormServiceWrapper;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The namespace of an end-to-end test, made before it and gone after it: created (opted in to the bridge unless
 * told otherwise), its default ServiceAccount waited for, and at the end deleted and waited for until the API server
 * no longer has it, so that its pods no longer take room from the next test.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final TestNamespace NS = TestNamespace.forClass("inference");     // one for the whole class
 *
 * @RegisterExtension
 * final TestNamespace ns = TestNamespace.forEachTest("inference");         // a fresh one for every test
 * }</pre>
 *
 * A class-wide namespace must be registered on a static field (JUnit calls class callbacks only for those); it is
 * made before the class's own {@code @BeforeAll} methods and deleted after its {@code @AfterAll} methods.
 *
 * <p>Tests that each want an empty namespace share a class-wide one emptied after each test ({@link #empty}), which
 * spares them the wait for a deleted namespace to go.
 *
 * <p>A test that makes its namespaces as it goes (one per case, or only after a step of its own) opens them itself:
 *
 * <pre>{@code
 * try (TestNamespace ns = TestNamespace.forCase("case-3").open(cluster)) { ... }
 * }</pre>
 */
public final class TestNamespace
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, AutoCloseable {

    /** How long a namespace may take to go (its pods are deleted first, by the namespace controller). */
    private static final Duration GONE = Duration.ofSeconds(180);

    private final String name;
    private final boolean perClass;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private boolean made;
    /** The cluster of a namespace opened by {@link #open}. */
    private RealCluster opened;

    private TestNamespace(String name, boolean perClass) {
        this.name = Objects.requireNonNull(name);
        this.perClass = perClass;
        labels.put("topobridge.io/enabled", "true");
    }

    /** A namespace for all the tests of a class; register it on a static field. */
    public static TestNamespace forClass(String name) {
        return new TestNamespace(name, true);
    }

    /** A namespace of that name made anew for every test and gone after it. */
    public static TestNamespace forEachTest(String name) {
        return new TestNamespace(name, false);
    }

    /** A namespace a test makes itself with {@link #open} and deletes by closing it (try-with-resources). */
    public static TestNamespace forCase(String name) {
        return new TestNamespace(name, false);
    }

    /** Makes the namespace now, on {@code cluster}; {@link #close} deletes it and waits until it is gone. */
    public TestNamespace open(RealCluster cluster) {
        make(cluster);
        opened = cluster;
        return this;
    }

    /** Deletes a namespace made by {@link #open} and waits until it is gone. */
    @Override
    public void close() {
        if (opened != null) {
            delete(opened);
            opened = null;
        }
    }

    /** The same namespace without the label that opts it in to the bridge. */
    public TestNamespace notOptedIn() {
        labels.remove("topobridge.io/enabled");
        return this;
    }

    /** The same namespace with one more label. */
    public TestNamespace withLabel(String key, String value) {
        labels.put(key, value);
        return this;
    }

    /** The same namespace with one annotation (e.g. {@code topobridge.io/allowed-queues}). */
    public TestNamespace withAnnotation(String key, String value) {
        annotations.put(key, value);
        return this;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (perClass) {
            make(RealClusterExtension.cluster(context));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (perClass) {
            delete(RealClusterExtension.cluster(context));
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!perClass) {
            make(RealClusterExtension.cluster(context));
        } else if (!made) {
            throw new IllegalStateException("TestNamespace.forClass(\"" + name + "\") in "
                    + context.getRequiredTestClass().getSimpleName()
                    + " is registered on an instance field: JUnit calls class callbacks only for static fields");
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            delete(RealClusterExtension.cluster(context));
        }
    }

    private void make(RealCluster cluster) {
        KubernetesClient client = cluster.client();
        // a namespace a failed test left behind is still being deleted: wait for it, then start afresh
        waitGone(cluster);
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withLabels(Map.copyOf(labels))
                        .withAnnotations(Map.copyOf(annotations))
                        .endMetadata()
                        .build())
                .create();
        made = true;
        cluster.waitFor(
                "the default ServiceAccount in " + name,
                Duration.ofSeconds(60),
                () -> client.serviceAccounts()
                                .inNamespace(name)
                                .withName("default")
                                .get()
                        != null);
    }

    private void delete(RealCluster cluster) {
        if (!made) {
            return;
        }
        cluster.client().namespaces().withName(name).delete();
        deletePodsNow(cluster.client(), name);
        waitGone(cluster);
        made = false;
    }

    /**
     * Empties a class-wide namespace of what a test made, so that the next test starts as in a namespace of its own,
     * without waiting for a deleted namespace to go (the namespace controller's first pass comes 5 s after the
     * deletion): its Deployments, StatefulSets, DisaggregatedSets, LeaderWorkerSets and StormServices deleted, their
     * pods at once, waited for until none of them, no ReplicaSet or RoleSet (which would make pods again) and no pod
     * is left, then its PodGroups deleted as the namespace controller would, and waited for too (a PodGroup left would
     * still count in Volcano's queue, a RoleSet in AIBrix's budget).
     */
    public void empty(RealCluster cluster) {
        KubernetesClient client = cluster.client();
        client.apps().deployments().inNamespace(name).delete();
        client.apps().statefulSets().inNamespace(name).delete();
        for (String kind : WORKLOADS.keySet()) {
            client.genericKubernetesResources(WORKLOADS.get(kind), kind)
                    .inNamespace(name)
                    .delete();
        }
        var podGroups = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(name);
        cluster.waitFor("namespace " + name + " emptied", GONE, () -> {
            deletePodsNow(client, name);
            boolean workloadsGone = client.apps()
                            .deployments()
                            .inNamespace(name)
                            .list()
                            .getItems()
                            .isEmpty()
                    && client.apps()
                            .replicaSets()
                            .inNamespace(name)
                            .list()
                            .getItems()
                            .isEmpty()
                    && client.apps()
                            .statefulSets()
                            .inNamespace(name)
                            .list()
                            .getItems()
                            .isEmpty()
                    && WORKLOADS.keySet().stream()
                            .allMatch(kind -> client.genericKubernetesResources(WORKLOADS.get(kind), kind)
                                    .inNamespace(name)
                                    .list()
                                    .getItems()
                                    .isEmpty())
                    && client.pods().inNamespace(name).list().getItems().isEmpty();
            if (workloadsGone) {
                podGroups.delete();
            }
            return workloadsGone && podGroups.list().getItems().isEmpty();
        });
    }

    /** The custom workload kinds {@link #empty} deletes, by kind: their API versions. */
    private static final Map<String, String> WORKLOADS = Map.of(
            "DisaggregatedSet", "disaggregatedset.x-k8s.io/v1",
            "LeaderWorkerSet", LeaderWorkerSetWrapper.API_VERSION,
            "StormService", StormServiceWrapper.API_VERSION,
            "RoleSet", StormServiceWrapper.API_VERSION);

    /**
     * Deletes the pods of a namespace whose deletion was just asked for, at once (grace 0), as the fake kubelet does
     * with a pod marked for deletion. Terminating, the namespace takes no new pod from its controllers. Without this
     * the namespace controller's first pass, 5 s after the deletion, marks the pods and finds them still there, and
     * looks again only seconds later; with it, that first pass finds none and the namespace is gone then.
     */
    static void deletePodsNow(KubernetesClient client, String namespace) {
        client.pods().inNamespace(namespace).withGracePeriod(0).delete();
    }

    private void waitGone(RealCluster cluster) {
        KubernetesClient client = cluster.client();
        cluster.waitFor(
                "namespace " + name + " gone",
                GONE,
                () -> client.namespaces().withName(name).get() == null);
    }
}
