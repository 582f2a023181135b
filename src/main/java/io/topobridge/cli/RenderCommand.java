package io.topobridge.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.render.Renderer;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.manifest.YamlPrinter;
import io.topobridge.volcano.VolcanoObjects;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code render}: the objects the controller would apply for a set of manifests, without a cluster. */
@Command(
        name = "render",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Reads Kubernetes YAML (files or folders, multi-document, or - for standard input; any mix of "
                + "Nodes, workloads and Pods; a document without apiVersion and kind is skipped with a NOTE) "
                + "and prints on stdout, as multi-document YAML (-o json: one List) in a deterministic order, the HyperNodes and "
                + "PodGroups the controller would apply and each input Pod as admission would let it in. "
                + "Workloads are first expanded into the objects their controllers would make (StormService into "
                + "RoleSets, PodSets and pods; LeaderWorkerSet into StatefulSets and pods; Deployment into a "
                + "ReplicaSet and pods; ...), never making again what the input gives: those are printed too, pods "
                + "as admission would let them in, and a NOTE on stderr names generated names and what a cap left "
                + "out. Findings go to stderr, one line each, naming the object. Tiers and the cluster's capacity come "
                + "from "
                + "the Nodes in the input; Namespaces, Queues, ResourceQuotas and existing PodGroups are judged as "
                + "the controller judges them, and a check whose objects the input lacks is named on stderr (NOTE) "
                + "and left out.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every input object was accepted (also when a cap cut the expansion short: a NOTE says so)",
            "1:some input object was rejected, or the controller would refuse to make a PodGroup a gang wants (the"
                    + " finding says why, and that gang's pods are printed untied); everything valid is still printed",
            "2:usage error (bad option, unreadable path, invalid tier configuration)"
        })
public class RenderCommand extends SettingsCommand implements Callable<Integer> {

    /** The highest cap either option takes: 100,000 objects made and admitted fit a 512 MiB heap. */
    static final long MAX_CAP = 100_000;

    @Option(
            names = "--preset",
            paramLabel = "NAME",
            description = "Built-in node label scheme (default: the configured one, normally 'auto').")
    String preset;

    @Option(
            names = "--tiers",
            split = ",",
            paramLabel = "LABEL[=NAME]",
            description = "Explicit tiers, finest (tier 1) first: node label keys, each with an optional tier name.")
    List<String> tiers;

    @Option(
            names = "--no-expand",
            description = "Render the input as it is: do not add the objects the workload controllers would make.")
    boolean noExpand;

    @Option(
            names = "--expand-cap",
            paramLabel = "N",
            defaultValue = "1000",
            description = "Most objects the expansion makes for one input workload, all below it counted; a gang is "
                    + "made whole or not at all, and a NOTE names a workload cut short (0 to "
                    + MAX_CAP + ", default: ${DEFAULT-VALUE}).")
    long expandCap;

    @Option(
            names = "--expand-total-cap",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Most objects the expansion makes for the whole input (0 to " + MAX_CAP
                    + ", default: ${DEFAULT-VALUE}).")
    long expandTotalCap;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = OutputFormat.YAML,
            description = "yaml (default: one document per object) or json (one List of the objects).")
    String output;

    @Parameters(
            arity = "1..*",
            paramLabel = "PATH",
            description = "YAML or JSON files or folders (searched recursively); - reads standard input.")
    List<Path> paths;

    @Override
    public Integer call() {
        OutputFormat.check(spec, output, OutputFormat.YAML, OutputFormat.JSON);
        TopologySettings topology;
        try {
            topology = settings.topology(preset, tiers);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        Expansion.Limits limits = noExpand
                ? null
                : new Expansion.Limits(cap("--expand-cap", expandCap), cap("--expand-total-cap", expandTotalCap));
        var serialization = new KubernetesSerialization();
        ManifestReader.Result input;
        try {
            input = new ManifestReader(serialization).read(paths);
        } catch (ManifestReader.UnreadablePathException e) {
            throw usage(e.getMessage());
        }
        Renderer renderer = new Renderer(
                topology,
                settings.workloads(),
                settings.admission(),
                settings.reconcile(),
                settings.reservations(),
                settings.accelerators(),
                java.time.Clock.systemUTC());
        RenderOutput output =
                limits == null ? renderer.render(input.objects()) : renderer.render(input.objects(), limits);

        List<HasMetadata> printed = new ArrayList<>();
        output.hyperNodes().forEach(h -> printed.add(VolcanoObjects.hyperNode(h)));
        output.podGroups().forEach(p -> printed.add(VolcanoObjects.podGroup(p)));
        printed.addAll(output.expanded());
        printed.addAll(output.pods());
        print(serialization, printed);

        input.notes().forEach(n -> System.err.println("NOTE " + n));
        output.notes().forEach(n -> System.err.println("NOTE " + n));
        List<Finding> findings = new ArrayList<>(input.findings());
        findings.addAll(output.findings());
        findings.forEach(f -> System.err.println(f.line()));
        return output.rejected() || Finding.anyRejection(findings) ? 1 : 0;
    }

    private void print(KubernetesSerialization serialization, List<HasMetadata> printed) {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        if (OutputFormat.JSON.equals(output)) {
            Map<String, Object> list = new LinkedHashMap<>();
            list.put("apiVersion", "v1");
            list.put("kind", "List");
            list.put(
                    "items",
                    printed.stream()
                            .map(o -> YamlPrinter.tree(serialization, o))
                            .toList());
            out.println(OutputFormat.json(list));
        } else {
            printed.forEach(object -> out.print(YamlPrinter.print(serialization, object)));
        }
        out.flush();
    }

    private long cap(String option, long value) {
        if (value < 0 || value > MAX_CAP) {
            throw usage(option + " must be between 0 and " + MAX_CAP + ", got " + value);
        }
        return value;
    }
}
