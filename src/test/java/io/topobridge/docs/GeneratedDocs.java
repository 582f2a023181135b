package io.topobridge.docs;

import io.topobridge.core.diagnosis.Doctor;
import io.topobridge.testing.GeneratedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The generated regions of the manual: the configuration reference in {@code docs/configuration.md} and the findings
 * reference in {@code docs/findings.md}, each between a begin and an end marker; the text around them is written by
 * hand. {@link GeneratedDocsTest} fails when a committed page differs from what this produces;
 * {@code ./mvnw -B -q test -Dtest=GeneratedDocsTest -Ddocs.update=true} (or {@link #main} with the test classpath)
 * rewrites the regions.
 */
public final class GeneratedDocs {

    /** The command that rewrites the generated regions, as the failing test prints it. */
    public static final String UPDATE_COMMAND =
            "./mvnw -B -q test -Dtest=GeneratedDocsTest -Dsurefire.failIfNoSpecifiedTests=false -Ddocs.update=true";

    /** One generated region: the page, the region's name in its markers, and what produces its content. */
    public record Region(Path page, String name, Function<Path, String> content) {

        String begin() {
            return "<!-- BEGIN GENERATED " + name + ": do not edit; regenerate with " + UPDATE_COMMAND + " -->";
        }

        String end() {
            return "<!-- END GENERATED " + name + " -->";
        }
    }

    /** What a doctor check fails (or warns) on, and the finding reasons it raises. */
    private record CheckDoc(String failsWhen, String reasons) {}

    /** Each doctor check's row of the manual's table, by check name. */
    private static final Map<String, CheckDoc> DOCTOR_CHECKS = Map.of(
            "volcano-crds",
            new CheckDoc(
                    "the PodGroup CRD lacks `spec.networkTopology` or `spec.subGroupPolicy`, the HyperNode CRD lacks"
                            + " `spec.tierName`, or either is absent: **Volcano v1.14 or later** is needed",
                    "`VolcanoCrdTooOld`, `VolcanoCrdMissing`"),
            "scheduler-config",
            new CheckDoc(
                    "the scheduler configuration does not enable `network-topology-aware` (hard topology is not"
                            + " enforced) or `gang` (gangs and subgroups are not all-or-nothing), or sets"
                            + " `enabledHyperNodeGradient: false` on `network-topology-aware`; a warning when the"
                            + " ConfigMap is missing or unreadable",
                    "`SchedulerPluginMissing`, `SchedulerConfigUnknown`"),
            "scheduler-actions",
            new CheckDoc(
                    "the scheduler configuration's `actions` lack one that"
                            + " [Install](install.md#enable-network-topology-aware-in-volcano) recommends for gangs —"
                            + " `enqueue` (without it `allocate` admits every PodGroup at once, whether or not its queue"
                            + " has room for its `minResources`), `allocate` (no pod is placed: a failure), `backfill`"
                            + " (pods that request nothing are never placed) — or run `enqueue` after `allocate`"
                            + " (warnings); a failure when `actions` is absent or names an action Volcano does not know"
                            + " (v1.15: `enqueue`, `allocate`, `backfill`, `preempt`, `reclaim`, `gangpreempt`,"
                            + " `gangreclaim`, `shuffle`), since Volcano then refuses the whole file and keeps the"
                            + " configuration it had. A warning also when it names `gangpreempt` or `gangreclaim`,"
                            + " which Volcano before v1.15 does not know (it would refuse the file;"
                            + " [Compatibility](compatibility.md)). The message names what is missing; `preempt` and"
                            + " `reclaim` are not part of the recommendation and are only named",
                    "`SchedulerActionMissing`"),
            "label-discovery",
            new CheckDoc(
                    "Volcano's own HyperNode label discovery (key `volcano-controller.conf`,"
                            + " `networkTopologyDiscovery[]` with `source: label`, enabled) makes HyperNodes from a"
                            + " label the bridge's tiers read: two sources fight over nodes. Volcano's HyperNode"
                            + " controller reads `<release>-controller-configmap` in its namespace; the bridge reads"
                            + " the one of the release its scheduler ConfigMap names (`<release>-scheduler-configmap`,"
                            + " e.g. `vc-scheduler-configmap` → `vc-controller-configmap`) and"
                            + " `volcano-controller-configmap` (the chart grants `get` on just those); the `doctor`"
                            + " command, run with your rights, also lists the namespace for any other"
                            + " `*-controller-configmap`. Each overlap names its ConfigMap",
                    "`LabelDiscoveryOverlap`"),
            "queues",
            new CheckDoc(
                    "a queue that managed workloads (`topobridge.io/queue`, `scheduling.volcano.sh/queue-name`, else"
                            + " their namespace's default queue — the Namespace's `scheduling.volcano.sh/queue-name` —"
                            + " else the configured default queue) or the bridge's PodGroups name does not exist or is"
                            + " not Open",
                    "`QueueNotFound`, `QueueClosed`"),
            "hypernode-forest",
            new CheckDoc(
                    "across every source, a node or HyperNode has two parents, HyperNodes form a cycle, a HyperNode"
                            + " above tier 1 has Node members, or a member is not exactly one tier below its parent",
                    "`HyperNodeForestBroken`"),
            "webhooks",
            new CheckDoc(
                    "admission is on and the Mutating or Validating webhook configuration is missing, or a webhook's"
                            + " `caBundle` is not the certificate Secret's `ca.crt`; configurations the bridge may not"
                            + " read are a warning only where it writes them itself (`manage-configurations=true`),"
                            + " and not checked where their installer keeps them (OLM names them itself and grants"
                            + " the bridge no access to them)",
                    "`WebhookConfigurationStale`"),
            "gpu-nodes",
            new CheckDoc(
                    "(a warning) GPU nodes are in no topology tree; they are named",
                    "each node is the topology's `GpuNodeOutsideTopology` finding"),
            "node-room",
            new CheckDoc(
                    "(a warning) nodes are not ready, or a running hard-tier gang's domain lost the room to run it"
                            + " again (`DomainLost`, `ReplacementBlocked`, with the domain and what it lost); cordoned"
                            + " nodes and accelerator nodes with NoSchedule/NoExecute taints are named (their resources"
                            + " are no room for a gang's new pods, so `auto` and explain leave them out) but are no"
                            + " problem on their own",
                    "none of its own: a lost domain is the workloads' `DomainLost` finding"),
            "kubernetes-apis",
            new CheckDoc(
                    "(a warning) the cluster does not serve an optional Kubernetes API (its discovery answers 404):"
                            + " `resource.k8s.io/v1` (Kubernetes 1.34 and later; without it the bridge does not cache"
                            + " ResourceClaims and ResourceClaimTemplates, so DRA devices are not counted) or"
                            + " `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicies (1.30 and later; the"
                            + " chart's `nodeLabelPolicy`). The bridge says the same in one line when it starts",
                    "none: nothing in the cluster is wrong, a feature is off"));

    private GeneratedDocs() {}

    /** Every generated region, relative to the project directory. */
    public static List<Region> regions() {
        return List.of(
                new Region(
                        Path.of("docs", "configuration.md"),
                        "configuration-reference",
                        root -> ConfigReference.markdown(ConfigReference.read(root.resolve("src/main/java")))),
                new Region(Path.of("docs", "diagnosis.md"), "doctor-checks", root -> doctorChecks()),
                new Region(
                        Path.of("docs", "findings.md"),
                        "reasons-reference",
                        root -> ReasonReference.markdown(ReasonReference.read(root.resolve("src/main/java")))));
    }

    /** The table of the doctor's checks, in the order of their catalog; a check without a row here fails. */
    static String doctorChecks() {
        StringBuilder out = new StringBuilder("| check | fails (or warns) when | finding reason |\n|---|---|---|");
        for (Doctor.Check c : Doctor.CHECKS) {
            CheckDoc doc = DOCTOR_CHECKS.get(c.name());
            if (doc == null) {
                throw new IllegalStateException("doctor check " + c.name() + " has no row in GeneratedDocs");
            }
            out.append("\n| `")
                    .append(c.name())
                    .append("` | ")
                    .append(doc.failsWhen())
                    .append(" | ")
                    .append(doc.reasons())
                    .append(" |");
        }
        return out.toString();
    }

    /** {@code page} with the region's content replaced by what the code says now. */
    public static String render(String page, Region region, Path root) {
        int begin = page.indexOf(region.begin());
        int end = page.indexOf(region.end());
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(region.page() + " lacks the markers of the generated region "
                    + region.name() + ": a line " + region.begin() + " and, below it, a line " + region.end());
        }
        return page.substring(0, begin + region.begin().length()) + "\n"
                + region.content().apply(root) + "\n" + page.substring(end);
    }

    /** The pages whose generated regions differ from the code, after rewriting them if {@code update}. */
    public static List<Path> check(Path root, boolean update) {
        List<Path> stale = new ArrayList<>();
        for (Region region : regions()) {
            Path file = root.resolve(region.page());
            try {
                String page = Files.readString(file);
                String fresh = render(page, region, root);
                if (!fresh.equals(page)) {
                    stale.add(region.page());
                    if (update) {
                        Files.writeString(file, fresh);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return stale;
    }

    /**
     * {@code GeneratedDocs [--check] [project dir]}: rewrites the generated regions (or, with {@code --check}, exits 1
     * naming the stale pages). Needs the test classpath: the references read the compiled configuration interfaces and
     * reason enums next to their sources.
     */
    public static void main(String[] args) {
        boolean checkOnly = args.length > 0 && args[0].equals("--check");
        Path root = Path.of(args.length > (checkOnly ? 1 : 0) ? args[checkOnly ? 1 : 0] : ".");
        GeneratedFiles.run(
                GeneratedDocs::check, root, checkOnly, "the generated regions of the manual", UPDATE_COMMAND);
    }
}
