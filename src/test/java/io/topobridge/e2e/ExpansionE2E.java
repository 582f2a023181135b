package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.ExpansionMatcher;
import io.topobridge.testing.Upstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code Expansion.expand} against the real controllers: every workload manifest the pinned upstream modules ship as a
 * sample (LeaderWorkerSet's {@code config/samples} and {@code docs/examples}, AIBrix's {@code config/samples} and
 * {@code samples}), the project's {@code examples/workloads} and the cases under {@code src/test/resources/expansion}
 * is applied to the real cluster, each in a namespace of its own, and once the controllers are done the objects they
 * made (RoleSets, PodSets, LeaderWorkerSets, StatefulSets, ReplicaSets, Pods) are compared with what the expansion
 * made of the same manifest: kinds, names, labels, annotations and owners, generated values by their shape. A manifest
 * the API server refuses must be one the expansion makes nothing of, with a note.
 *
 * <p>Pods of the default scheduler are bound by the test (the cluster has no kube-scheduler) to a node of their own,
 * labelled for LWS's exclusive placement samples and tainted so Volcano never uses it; the fake kubelet then reports
 * them running, so LeaderReady groups and OrderedReady StatefulSets proceed as on a real cluster.
 */
@ExtendWith(RealClusterExtension.class)
class ExpansionE2E {

    private static final Duration SETTLE = Duration.ofSeconds(5);
    /** How often {@link #settle} counts what the controllers made; the quiet it waits for is {@link #SETTLE}. */
    private static final Duration POLL = Duration.ofMillis(500);

    private static final Duration BATCH_TIMEOUT = Duration.ofSeconds(240);
    private static final String BINDER_NODE = "expansion-e2e-node";
    private static final Set<String> WORKLOAD_KINDS = Set.of(
            "StormService",
            "RoleSet",
            "PodSet",
            "LeaderWorkerSet",
            "DisaggregatedSet",
            "Deployment",
            "StatefulSet",
            "ReplicaSet",
            "Pod");
    private static final Pattern AIBRIX_KIND = Pattern.compile("(?m)^kind:\\s*(StormService|RoleSet|PodSet)\\s*$");
    private static final Pattern LWS_KIND = Pattern.compile("(?m)^kind:\\s*(LeaderWorkerSet|DisaggregatedSet)\\s*$");
    private static final Pattern ANY_WORKLOAD = Pattern.compile(
            "(?m)^kind:\\s*(StormService|RoleSet|PodSet|LeaderWorkerSet|DisaggregatedSet|Deployment|StatefulSet)\\s*$");

    /**
     * Annotations written by components that are not workload controllers: Volcano's podgroup controller names the
     * PodGroup it makes for a pod of {@code schedulerName: volcano} that names none.
     */
    private static final Set<String> NOT_FROM_WORKLOAD_CONTROLLERS = Set.of("scheduling.k8s.io/group-name");

    private final RealCluster cluster;
    private KubernetesClient client;
    private final Set<String> bound = ConcurrentHashMap.newKeySet();
    private final Set<String> binding = ConcurrentHashMap.newKeySet();

    ExpansionE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    /** One manifest file: what is applied, the namespace, and what the expansion made of it. */
    private record Case(
            String label,
            Path file,
            String namespace,
            List<HasMetadata> inputs,
            List<String> skipped,
            Expansion.Result expansion) {

        boolean aibrix() {
            return inputs.stream()
                    .anyMatch(o -> Set.of("StormService", "RoleSet", "PodSet").contains(o.getKind()));
        }
    }

    /** What happened to one case on the cluster. */
    private record Outcome(
            Case c,
            List<String> refused,
            List<String> differences,
            int actual,
            int tokens,
            int ignored,
            long seconds) {}

    @Test
    void theExpansionOfEveryManifestEqualsWhatTheRealControllersMake() throws Exception {
        client = cluster.client();
        if (cluster.lwsVolcanoProvider()) {
            // the provider stamps pods with its PodGroup: this test compares the controllers' own objects
            cluster.startLws(false);
        }
        Examples.ensureNodes(client);
        ensureBinderNode();

        List<Case> cases = cases();
        assertThat(cases).as("the manifests to prove").hasSizeGreaterThan(30);

        ScheduledExecutorService binder = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "expansion-binder");
            t.setDaemon(true);
            return t;
        });
        binder.scheduleWithFixedDelay(this::bindPending, 500, 500, TimeUnit.MILLISECONDS);
        List<Outcome> outcomes = new ArrayList<>();
        try {
            for (List<Case> batch : batches(cases)) {
                outcomes.addAll(runBatch(batch));
            }
        } finally {
            binder.shutdownNow();
            binding.clear();
            client.nodes().withName(BINDER_NODE).delete();
        }

        String report = report(outcomes);
        System.out.println(report);
        Path out = Path.of("target", "e2e", "expansion-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        List<String> failures = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (!o.differences().isEmpty()) {
                failures.add(o.c().label() + ":\n  " + String.join("\n  ", o.differences()));
            }
        }
        assertThat(failures)
                .as("expansion versus the real controllers\n" + report)
                .isEmpty();
    }

    // ---------------------------------------------------------------- the manifests

    private List<Case> cases() throws IOException {
        List<Path> files = new ArrayList<>();
        Path lws = Upstream.module("lws");
        files.addAll(yamlFiles(lws.resolve("config/samples"), LWS_KIND));
        files.addAll(yamlFiles(lws.resolve("docs/examples"), LWS_KIND));
        Path aibrix = Upstream.module("aibrix");
        files.addAll(yamlFiles(aibrix.resolve("config/samples"), AIBRIX_KIND));
        files.addAll(yamlFiles(aibrix.resolve("samples"), AIBRIX_KIND));
        files.addAll(yamlFiles(Path.of("examples", "workloads"), ANY_WORKLOAD));
        files.addAll(yamlFiles(Path.of("src", "test", "resources", "expansion"), ANY_WORKLOAD));

        ManifestReader reader = new ManifestReader(client.getKubernetesSerialization());
        List<Case> cases = new ArrayList<>();
        for (Path file : files) {
            String label = label(file, lws, aibrix);
            String ns = namespace(cases.size(), label);
            List<HasMetadata> inputs = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            for (HasMetadata object : reader.read(List.of(file)).objects()) {
                boolean owned = object.getMetadata().getOwnerReferences() != null
                        && !object.getMetadata().getOwnerReferences().isEmpty();
                if (!WORKLOAD_KINDS.contains(object.getKind()) || owned) {
                    // Services, autoscalers, adapters; and objects seeded for the demo that a controller makes
                    skipped.add(object.getKind() + "/" + object.getMetadata().getName());
                    continue;
                }
                object.getMetadata().setNamespace(ns);
                inputs.add(object);
            }
            Expansion.Result expansion = Kinds.expansion().expand(inputs, new Expansion.Limits(100_000, 1_000_000));
            cases.add(new Case(label, file, ns, inputs, skipped, expansion));
        }
        return cases;
    }

    private static List<Path> yamlFiles(Path dir, Pattern kinds) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            List<Path> out = new ArrayList<>();
            for (Path file : walk.filter(Files::isRegularFile)
                    .filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .sorted()
                    .toList()) {
                if (kinds.matcher(Files.readString(file)).find()) {
                    out.add(file);
                }
            }
            return out;
        }
    }

    private static String label(Path file, Path lws, Path aibrix) {
        if (file.startsWith(lws)) {
            return "lws v0.9.0 " + lws.relativize(file);
        }
        if (file.startsWith(aibrix)) {
            return "aibrix v0.7.0 " + aibrix.relativize(file);
        }
        return file.toString();
    }

    private static String namespace(int index, String label) {
        String slug = label.replaceAll(".*/", "")
                .replaceAll("\\.ya?ml$", "")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-")
                .replaceAll("(^-+|-+$)", "");
        String ns = "expand-" + index + "-" + slug;
        return ns.length() > 50 ? ns.substring(0, 50).replaceAll("-+$", "") : ns;
    }

    /**
     * Cases run together unless a StormService of one would count RoleSets of the other: AIBrix v0.7.0 lists the
     * RoleSets its selector matches in every namespace.
     */
    private static List<List<Case>> batches(List<Case> cases) {
        List<List<Case>> batches = new ArrayList<>();
        for (Case c : cases) {
            List<Case> home = null;
            for (List<Case> batch : batches) {
                if (batch.stream().noneMatch(other -> overlaps(c, other) || overlaps(other, c))) {
                    home = batch;
                    break;
                }
            }
            if (home == null) {
                home = new ArrayList<>();
                batches.add(home);
            }
            home.add(c);
        }
        return batches;
    }

    /** Whether a StormService of {@code a} selects a RoleSet (given or made) of {@code b}. */
    private static boolean overlaps(Case a, Case b) {
        List<Map<String, String>> roleSets = new ArrayList<>();
        Stream.concat(b.inputs().stream(), b.expansion().created().stream())
                .filter(o -> "RoleSet".equals(o.getKind()))
                .forEach(o -> roleSets.add(
                        o.getMetadata().getLabels() == null
                                ? Map.of()
                                : o.getMetadata().getLabels()));
        for (HasMetadata storm : a.inputs()) {
            if (!"StormService".equals(storm.getKind())) {
                continue;
            }
            JsonNode selector =
                    Examples.json(storm).path("spec").path("selector").path("matchLabels");
            for (Map<String, String> labels : roleSets) {
                boolean all = true;
                for (var it = selector.fields(); it.hasNext(); ) {
                    var e = it.next();
                    all &= e.getValue().asText().equals(labels.get(e.getKey()));
                }
                if (all) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- one batch on the cluster

    private List<Outcome> runBatch(List<Case> batch) {
        long started = System.nanoTime();
        Map<Case, List<String>> refused = new LinkedHashMap<>();
        for (Case c : batch) {
            // not opted in to the bridge: only the workload controllers write to its objects
            client.namespaces()
                    .resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                            .withNewMetadata()
                            .withName(c.namespace())
                            .endMetadata()
                            .build())
                    .create();
        }
        for (Case c : batch) {
            cluster.waitFor(
                    "the default ServiceAccount in " + c.namespace(),
                    Duration.ofSeconds(60),
                    () -> client.serviceAccounts()
                                    .inNamespace(c.namespace())
                                    .withName("default")
                                    .get()
                            != null);
        }
        for (Case c : batch) {
            // what the manifests take for granted in a namespace: the ServiceAccounts their pods run as
            for (String account : serviceAccounts(c)) {
                client.serviceAccounts()
                        .inNamespace(c.namespace())
                        .resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                                .withNewMetadata()
                                .withName(account)
                                .endMetadata()
                                .build())
                        .create();
            }
            List<String> why = new ArrayList<>();
            for (HasMetadata object : c.inputs()) {
                try {
                    client.resource(object).inNamespace(c.namespace()).create();
                } catch (KubernetesClientException e) {
                    why.add(object.getKind() + "/" + object.getMetadata().getName() + ": " + e.getMessage());
                }
            }
            refused.put(c, why);
            binding.add(c.namespace());
        }
        Map<Case, Integer> seen = new LinkedHashMap<>();
        settle(batch, seen);
        List<Outcome> out = new ArrayList<>();
        for (Case c : batch) {
            List<HasMetadata> actual = actual(c);
            ExpansionMatcher matcher = new ExpansionMatcher(c.expansion().generated(), NOT_FROM_WORKLOAD_CONTROLLERS);
            List<String> differences =
                    new ArrayList<>(matcher.differences(c.expansion().created(), actual));
            for (String why : refused.get(c)) {
                String refusedName = why.substring(0, why.indexOf(':'));
                boolean noted = c.expansion().notes().stream()
                        .map(Finding::object)
                        .anyMatch(ref -> refusedName.equals(ref.kind() + "/" + ref.name()));
                if (!noted) {
                    differences.add("the API server refused " + why + ", but the expansion has no note on it");
                }
            }
            out.add(new Outcome(
                    c,
                    refused.get(c),
                    differences,
                    actual.size(),
                    matcher.bindings().size(),
                    matcher.ignored(),
                    (System.nanoTime() - started) / 1_000_000_000));
        }
        for (Case c : batch) {
            binding.remove(c.namespace());
            client.namespaces().withName(c.namespace()).delete();
            if (c.aibrix()) {
                // what the namespace controller would delete, at once: with a whole batch of namespaces going it
                // reaches the last one's only after tens of seconds; terminating, the namespace takes no new RoleSet
                for (String kind : List.of("StormService", "RoleSet")) {
                    client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", kind)
                            .inNamespace(c.namespace())
                            .delete();
                }
            }
        }
        for (Case c : batch) {
            if (!c.aibrix()) {
                continue;
            }
            // a terminating RoleSet still counts in AIBrix's budget for a StormService selecting it: wait until the
            // next batch cannot see them (the namespace itself may outlive them, e.g. with protected claims)
            try {
                cluster.waitFor(
                        "the RoleSets of " + c.namespace() + " to go",
                        Duration.ofSeconds(120),
                        () -> generic(c.namespace(), "orchestration.aibrix.ai/v1alpha1", "RoleSet")
                                .isEmpty());
            } catch (IllegalStateException e) {
                System.out.println("expansion: " + e.getMessage());
            }
        }
        return out;
    }

    /** The ServiceAccounts the pod templates of a case run as, but {@code default} (the cluster makes it). */
    private static Set<String> serviceAccounts(Case c) {
        Set<String> out = new java.util.TreeSet<>();
        for (HasMetadata input : c.inputs()) {
            for (JsonNode found : Examples.json(input).findValues("serviceAccountName")) {
                if (found.isTextual() && !found.asText().isEmpty() && !"default".equals(found.asText())) {
                    out.add(found.asText());
                }
            }
        }
        return out;
    }

    /**
     * Waits until every case holds at least as many objects as its expansion and nothing changed for a while (a case
     * that makes nothing waits the same quiet time), touching a StormService AIBrix ignored (as {@code AdoptionE2E}).
     */
    private void settle(List<Case> batch, Map<Case, Integer> seen) {
        long deadline = System.nanoTime() + BATCH_TIMEOUT.toNanos();
        long quietSince = System.nanoTime();
        long began = System.nanoTime();
        boolean touched = false;
        while (System.nanoTime() < deadline) {
            RealCluster.sleep(POLL);
            boolean changed = false;
            boolean short_ = false;
            Map<Case, List<HasMetadata>> made = actual(batch);
            for (Case c : batch) {
                int now = made.get(c).size();
                Integer before = seen.put(c, now);
                changed |= before == null || before != now;
                short_ |= now < c.expansion().created().size();
            }
            if (changed) {
                quietSince = System.nanoTime();
            }
            if (!short_ && System.nanoTime() - quietSince >= SETTLE.toNanos()) {
                return;
            }
            if (!touched && System.nanoTime() - began > Duration.ofSeconds(40).toNanos()) {
                touched = true;
                for (Case c : batch) {
                    if (seen.get(c) < c.expansion().created().size()) {
                        touchStormServices(c);
                    }
                }
            }
        }
        StringBuilder shortOnes = new StringBuilder();
        for (Case c : batch) {
            if (seen.get(c) < c.expansion().created().size()) {
                shortOnes
                        .append("\n  ")
                        .append(c.label())
                        .append(": ")
                        .append(seen.get(c))
                        .append(" of ")
                        .append(c.expansion().created().size());
            }
        }
        System.out.println("expansion batch still short after " + BATCH_TIMEOUT.toSeconds() + " s:" + shortOnes);
    }

    private void touchStormServices(Case c) {
        for (HasMetadata object : c.inputs()) {
            if ("StormService".equals(object.getKind())) {
                System.out.printf(
                        "touching StormService %s/%s (AIBrix made too little)%n",
                        c.namespace(), object.getMetadata().getName());
                client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", "StormService")
                        .inNamespace(c.namespace())
                        .withName(object.getMetadata().getName())
                        .edit(o -> {
                            o.getMetadata().getAnnotations().put("e2e.example.com/touched", "1");
                            return o;
                        });
            }
        }
    }

    /** The objects the controllers made in a case's namespace: every object of the compared kinds but the inputs. */
    private List<HasMetadata> actual(Case c) {
        String ns = c.namespace();
        List<HasMetadata> out = new ArrayList<>();
        out.addAll(generic(ns, "orchestration.aibrix.ai/v1alpha1", "RoleSet"));
        out.addAll(generic(ns, "orchestration.aibrix.ai/v1alpha1", "PodSet"));
        out.addAll(generic(ns, "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet"));
        out.addAll(client.apps().statefulSets().inNamespace(ns).list().getItems());
        out.addAll(client.apps().replicaSets().inNamespace(ns).list().getItems());
        out.addAll(client.pods().inNamespace(ns).list().getItems());
        return made(c, out);
    }

    /**
     * {@link #actual} of every case of a batch, read with one list of each kind across namespaces: a poll of the batch
     * costs six requests instead of six per case (a first batch holds some forty cases, whose controllers share the
     * API server with the polls).
     */
    private Map<Case, List<HasMetadata>> actual(List<Case> batch) {
        List<HasMetadata> all = new ArrayList<>();
        for (String kind : List.of("RoleSet", "PodSet")) {
            all.addAll(client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", kind)
                    .inAnyNamespace()
                    .list()
                    .getItems());
        }
        all.addAll(client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                .inAnyNamespace()
                .list()
                .getItems());
        all.addAll(client.apps().statefulSets().inAnyNamespace().list().getItems());
        all.addAll(client.apps().replicaSets().inAnyNamespace().list().getItems());
        all.addAll(client.pods().inAnyNamespace().list().getItems());
        Map<String, List<HasMetadata>> byNamespace = new java.util.HashMap<>();
        for (HasMetadata o : all) {
            byNamespace
                    .computeIfAbsent(o.getMetadata().getNamespace(), ns -> new ArrayList<>())
                    .add(o);
        }
        Map<Case, List<HasMetadata>> out = new LinkedHashMap<>();
        for (Case c : batch) {
            out.put(c, made(c, byNamespace.getOrDefault(c.namespace(), List.of())));
        }
        return out;
    }

    /** Of the objects in a case's namespace, those the controllers made: not terminating, not one of the inputs. */
    private static List<HasMetadata> made(Case c, List<HasMetadata> objects) {
        List<HasMetadata> out = new ArrayList<>(objects);
        out.removeIf(o -> o.getMetadata().getDeletionTimestamp() != null
                || c.inputs().stream()
                        .anyMatch(i -> i.getKind().equals(o.getKind())
                                && i.getMetadata()
                                        .getName()
                                        .equals(o.getMetadata().getName())));
        return out;
    }

    private List<GenericKubernetesResource> generic(String ns, String apiVersion, String kind) {
        return client.genericKubernetesResources(apiVersion, kind)
                .inNamespace(ns)
                .list()
                .getItems();
    }

    // ---------------------------------------------------------------- the stand-in scheduler

    /**
     * A node for pods of the default scheduler: labelled as LWS's exclusive-placement samples need, tainted so Volcano
     * keeps its gangs off it.
     */
    private void ensureBinderNode() {
        if (client.nodes().withName(BINDER_NODE).get() != null) {
            return;
        }
        Node node = Nodes.node(BINDER_NODE)
                .label("cloud.google.com/gke-nodepool", "expansion-pool")
                .label("topology.kubernetes.io/zone", "expansion-zone")
                .cpu("1000")
                .memory("4000Gi")
                .build();
        node.setSpec(new io.fabric8.kubernetes.api.model.NodeSpecBuilder()
                .withTaints(new TaintBuilder()
                        .withKey("e2e.topobridge.io/expansion")
                        .withValue("only")
                        .withEffect("NoSchedule")
                        .build())
                .build());
        Nodes.create(client, node);
    }

    /** Binds the pending pods of the default scheduler in the running cases' namespaces, as kube-scheduler would. */
    private void bindPending() {
        try {
            // one list across namespaces per round, not one per running case
            for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
                String ns = pod.getMetadata().getNamespace();
                String scheduler = pod.getSpec().getSchedulerName();
                if (!binding.contains(ns)
                        || (pod.getSpec().getNodeName() != null
                                && !pod.getSpec().getNodeName().isEmpty())
                        || "volcano".equals(scheduler)
                        || pod.getMetadata().getDeletionTimestamp() != null
                        || !bound.add(pod.getMetadata().getUid())) {
                    continue;
                }
                try {
                    client.bindings()
                            .inNamespace(ns)
                            .resource(new BindingBuilder()
                                    .withNewMetadata()
                                    .withName(pod.getMetadata().getName())
                                    .endMetadata()
                                    .withNewTarget()
                                    .withKind("Node")
                                    .withApiVersion("v1")
                                    .withName(BINDER_NODE)
                                    .endTarget()
                                    .build())
                            .create();
                } catch (KubernetesClientException e) {
                    bound.remove(pod.getMetadata().getUid());
                }
            }
        } catch (RuntimeException e) {
            // a namespace going away while listed; the next round sees the rest
        }
    }

    // ---------------------------------------------------------------- the report

    private static String report(List<Outcome> outcomes) {
        StringBuilder out = new StringBuilder("Expansion versus the real controllers (")
                .append(outcomes.size())
                .append(" manifests)\n");
        int proven = 0;
        for (Outcome o : outcomes) {
            boolean ok = o.differences().isEmpty();
            proven += ok ? 1 : 0;
            out.append(ok ? "EQUAL  " : "DIFFER ")
                    .append(o.c().label())
                    .append(": ")
                    .append(o.c().expansion().created().size())
                    .append(" objects expanded, ")
                    .append(o.actual())
                    .append(" made by the controllers (")
                    .append(o.tokens())
                    .append(" generated tokens matched by shape");
            if (o.ignored() > 0) {
                out.append(", ").append(o.ignored()).append(" Volcano PodGroup annotations left out");
            }
            out.append(')');
            if (!o.refused().isEmpty()) {
                out.append("; refused by the API server: ").append(o.refused().size());
            }
            if (!o.c().skipped().isEmpty()) {
                out.append("; not applied: ").append(o.c().skipped());
            }
            out.append('\n');
            for (String d : o.differences()) {
                out.append("    ").append(d).append('\n');
            }
        }
        out.append(proven).append(" of ").append(outcomes.size()).append(" equal\n");
        return out.toString();
    }
}
