package io.topobridge.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** {@code topobridge.workloads.*}: which workloads are managed and their PodGroup defaults. */
public interface WorkloadConfig {

    /** Translate annotated workloads into PodGroups at all. */
    @WithDefault("true")
    boolean enabled();

    /** Volcano queue of a PodGroup whose workload names none. */
    @WithDefault("default")
    String defaultQueue();

    /**
     * Only manage workloads in namespaces carrying the opt-in label ({@code topobridge.admission.namespace-label=true}),
     * as pods are: elsewhere a PodGroup would never get its pods.
     */
    @WithDefault("true")
    boolean requireNamespaceOptIn();

    /**
     * Which queues workloads may name in a namespace without the {@code topobridge.io/allowed-queues} annotation:
     * {@code default-only} (the namespace's default queue, {@code scheduling.volcano.sh/queue-name}, and
     * {@code default-queue}) or {@code any}.
     */
    @WithDefault("default-only")
    String queuesWithoutAllowList();

    /** How many PodGroups the bridge makes at most in one namespace (at least 1); more gangs get no new PodGroup. */
    @WithDefault("500")
    int maxPodgroupsPerNamespace();

    /**
     * How many gangs (LeaderWorkerSet groups, DisaggregatedSet slices) the bridge plans at most for one workload (at
     * least 1): a workload asking for more gets none, refused before any is planned.
     */
    @WithDefault("500")
    int maxGangsPerWorkload();

    /**
     * The share of the cluster's allocatable resources (above 0, at most 1; 0 for no such limit) that one namespace's
     * PodGroups may reserve together ({@code minResources}), besides its ResourceQuotas; a decimal or a
     * percentage ({@code 0.25}, {@code 25%}).
     */
    @WithDefault("1")
    String maxNamespaceShare();

    /**
     * Fixed amounts one namespace's PodGroups may reserve together, as {@code resource=quantity} entries (e.g.
     * {@code nvidia.com/gpu=64,cpu=512}); none by default.
     */
    java.util.Optional<java.util.List<String>> maxNamespaceReservation();

    /** Quiet period after a workload event before its gang is recomputed. */
    @WithDefault("50ms")
    Duration debounce();

    /** Longest a burst of events may delay a recomputation. */
    @WithDefault("2s")
    Duration maxDelay();

    /**
     * For {@code topobridge.io/highest-tier: auto}: how many domains of a tier must be able to hold a gang (when empty)
     * for that tier to be chosen; at least 1.
     */
    @WithDefault("1")
    int autoTierMinDomains();

    /**
     * The extended resources that are accelerators (device plugins' names, {@code <domain>/<name>}): {@code auto} sizes a
     * gang that requests any of them by them (else by CPU and memory), and a node that offers any is an accelerator
     * node for explain, doctor and the topology findings.
     */
    @WithDefault(
            "nvidia.com/gpu,amd.com/gpu,habana.ai/gaudi,gpu.intel.com/i915,gpu.intel.com/xe,huawei.com/Ascend910,"
                    + "huawei.com/Ascend310,huawei.com/Ascend310P,aws.amazon.com/neuron,aws.amazon.com/neuroncore,google.com/tpu")
    List<String> acceleratorResources();

    /**
     * DRA DeviceClasses whose devices are whole accelerators, as {@code deviceClassName=resource} entries (e.g.
     * {@code gpu.nvidia.com=nvidia.com/gpu}): devices pods claim through ResourceClaimTemplates or ResourceClaims of a
     * listed class count as that resource when {@code auto} and explain size a gang (never in its PodGroup's
     * {@code minResources}); a claim of any other class gets a finding.
     */
    @WithDefault("gpu.nvidia.com=nvidia.com/gpu,gpu.amd.com=amd.com/gpu,gaudi.intel.com=habana.ai/gaudi")
    List<String> draDeviceClasses();

    /**
     * For {@code topobridge.io/highest-tier: auto} without a written mode: how long a new gang whose chosen tier has
     * no room today stays {@code hard}, waiting for room there, before it turns {@code soft} (counted from its
     * PodGroup's creation); 0 to make it soft at once. The default keeps a gang that arrives while its domains are
     * busy from being placed spread (and staying spread) when room would come within minutes.
     */
    @WithDefault("5m")
    Duration autoWaitForRoom();

    /**
     * How long the first PodGroup of a {@code topobridge.io/group} waits for the group's other members, counted from
     * the oldest member's creation (workloads applied together are seen one by one); 0 to write it at once.
     */
    @WithDefault("2s")
    Duration groupAssembly();

    /**
     * How long the domain of a running gang with {@code topobridge.io/on-domain-loss: restart} must have been lost
     * (its usable nodes can no longer hold it) before the bridge restarts the gang, unless the workload sets
     * {@code topobridge.io/domain-loss-grace}; between 1s and 24h.
     */
    @WithDefault("5m")
    Duration domainLossGrace();

    /**
     * How many gangs restarted for a lost domain may be under way at once in the cluster (restarted, not yet running
     * whole, within their grace); between 1 and 1000.
     */
    @WithDefault("1")
    int maxConcurrentRestarts();

    /** Period of the full pass over every gang (it writes nothing when nothing changed). */
    @WithDefault("10m")
    Duration resync();
}
