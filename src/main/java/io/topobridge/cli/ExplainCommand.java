package io.topobridge.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.api.DiagnosisResource;
import io.topobridge.cache.ClusterView;
import io.topobridge.cache.CoreViews;
import io.topobridge.cache.HyperNodeCache;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.diagnosis.Explain;
import io.topobridge.core.diagnosis.Explanation;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.PodGroup;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code explain [-n NAMESPACE] NAME}: why a gang waits, or where Volcano put it, computed like {@code /api/gangs} from
 * what a kubeconfig's cluster holds (nodes, pods, HyperNodes, PodGroups).
 */
@Command(
        name = "explain",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description =
                "Explains a gang: its PodGroup, phase and Volcano's conditions, the tiers it asks for and, while "
                        + "it waits, the largest free capacity of any single domain per tier against what it needs; for a "
                        + "placed gang the tier it achieved. NAME is a PodGroup or the workload (or topobridge.io/group) "
                        + "whose gangs to explain, in the namespace -n names (or NAMESPACE/NAME), else the kubeconfig context's.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the gang was found and explained",
            "1:no such gang",
            "2:usage error, no kubeconfig found, or the API server could not be asked"
        })
public class ExplainCommand extends SettingsCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "NAME", description = "the PodGroup or workload (or NAMESPACE/NAME)")
    String target;

    @Option(
            names = {"-n", "--namespace"},
            paramLabel = "NAMESPACE",
            description = "The gang's namespace (default: the kubeconfig context's).")
    String namespace;

    @Mixin
    ClusterAccess access;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = OutputFormat.TEXT,
            description = "text (default) or json (the same document as GET /api/gangs/NAMESPACE/NAME).")
    String output;

    private KubernetesClient client;

    @Override
    public Integer call() {
        int slash = target.indexOf('/');
        if (slash == 0 || slash == target.length() - 1 || (slash > 0 && target.indexOf('/', slash + 1) >= 0)) {
            throw usage("expected NAME or NAMESPACE/NAME, got " + UserText.quote(target));
        }
        if (slash > 0 && namespace != null && !namespace.equals(target.substring(0, slash))) {
            throw usage("namespace " + UserText.quote(target.substring(0, slash)) + " in " + UserText.quote(target)
                    + " differs from -n " + UserText.quote(namespace));
        }
        OutputFormat.check(spec, output, OutputFormat.TEXT, OutputFormat.JSON);
        return access.run(c -> {
            client = c;
            String ns = slash > 0 ? target.substring(0, slash) : ClusterAccess.namespace(namespace, c);
            return explain(ns, slash > 0 ? target.substring(slash + 1) : target);
        });
    }

    private int explain(String namespace, String name) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        List<PodGroup> podGroups = find(namespace, name);
        if (podGroups.isEmpty()) {
            System.err.println("no gang named " + UserText.quote(name) + " in namespace " + UserText.quote(namespace)
                    + ": neither a PodGroup nor a workload with one");
            return 1;
        }
        List<PodView> pods = client.pods().inAnyNamespace().list().getItems().stream()
                .filter(ClusterView::live)
                .map(CoreViews::fromPod)
                .toList();
        Forest forest = Forest.of(client.resources(HyperNode.class).list().getItems().stream()
                .map(HyperNodeCache::view)
                .toList());
        Capacity capacity = Capacity.of(
                client.nodes().list().getItems().stream().map(NodeView::of).toList(),
                pods,
                forest,
                settings.accelerators());
        List<Explanation> explained = new ArrayList<>();
        for (PodGroup pg : podGroups) {
            List<PodView> own = pods.stream()
                    .filter(p -> namespace.equals(p.namespace())
                            && pg.getMetadata().getName().equals(p.podGroup()))
                    .toList();
            explained.add(Explain.of(CoreViews.gang(pg, own), capacity));
        }
        if (OutputFormat.JSON.equals(output)) {
            out.println(OutputFormat.json(new DiagnosisResource.GangsDocument(namespace, name, explained)));
        } else {
            explained.forEach(e -> print(e, out));
        }
        return 0;
    }

    /** The PodGroup of that name, else the PodGroups whose gang is that workload or group, or that it owns. */
    private List<PodGroup> find(String namespace, String name) {
        var inNamespace = client.resources(PodGroup.class).inNamespace(namespace);
        PodGroup exact = inNamespace.withName(name).get();
        if (exact != null) {
            return List.of(exact);
        }
        return inNamespace.list().getItems().stream()
                .filter(pg -> {
                    Map<String, String> a = pg.getMetadata().getAnnotations();
                    String gang = a == null ? null : a.get(PodGroupBuilder.GANG_ANNOTATION);
                    boolean owned = pg.getMetadata().getOwnerReferences() != null
                            && pg.getMetadata().getOwnerReferences().stream().anyMatch(r -> name.equals(r.getName()));
                    return (gang != null && gang.endsWith("/" + name)) || owned;
                })
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .toList();
    }

    static void print(Explanation e, PrintStream out) {
        out.println("gang " + e.namespace() + "/" + e.podGroup()
                + (e.workload().isEmpty() ? "" : " (" + e.workload() + ")")
                + ": phase " + (e.phase().isEmpty() ? "unknown" : e.phase()) + ", "
                + (e.highestTier() == null
                        ? "no topology"
                        : e.mode() + " at tier " + e.highestTier()
                                + (e.highestTierName() == null ? "" : " (" + e.highestTierName() + ")") + " or below"));
        if (e.chosenTier() != null) {
            out.println("  tier chosen by auto: " + UserText.excerpt(e.chosenTier()));
        }
        out.println("  needs " + e.needs() + "; " + e.pods() + " pods of " + e.minMember() + ", " + e.boundPods()
                + " bound");
        e.conditions()
                .forEach(c -> out.println(
                        "  Volcano: " + c.type() + "=" + c.status() + (c.reason() == null ? "" : " " + c.reason())
                                + (c.message() == null ? "" : ": " + UserText.excerpt(c.message()))));
        e.tiers()
                .forEach(t ->
                        out.println("  tier " + t.tier() + (t.tierName().isEmpty() ? "" : " (" + t.tierName() + ")")
                                + (t.allowed() ? "" : " [above the allowed tier]") + ": " + t.domainsThatFit() + " of "
                                + t.domains()
                                + " domains have room; most free: "
                                + (t.best() == null ? "none" : t.best() + " " + t.bestFree())));
        if (e.achieved() != null && !e.achieved().subGroups().isEmpty()) {
            out.println("  subgroups: " + e.achieved().subGroupSummary());
        }
        out.println("  " + (e.pending() ? "pending (" + e.reason().reason() + "): " : "") + e.sentence());
    }
}
