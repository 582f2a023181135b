package io.topobridge.core.workload;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Reason;
import java.util.List;

/** Why the workload half of the bridge reported something about a workload or its PodGroup. */
public enum WorkloadReason implements Reason {
    /**
     * A {@code topobridge.io/} or Volcano annotation has a value the bridge cannot use: an unknown tier name, a tier
     * above the top or below 1, not a number, a bad mode, a hard mode without a tier, a bad group or queue name,
     * {@code min-member} out of range, or {@code group} on a kind that cannot join one.
     */
    INVALID_ANNOTATION,
    /**
     * A tier is named while no tiers are known yet (the topology is not built, or no labelled node has joined), or
     * {@code auto} is asked before any HyperNode is known: the PodGroup waits for the tiers, and its pods are still
     * tied to it at admission.
     */
    TIERS_UNKNOWN,
    /** Two sources (keys, objects or pod templates) give different values for one setting. */
    CONFLICTING_ANNOTATIONS,
    /** A {@code topobridge.io/} key the bridge does not know, most likely a typo. */
    UNKNOWN_ANNOTATION,
    /** The workload itself cannot be read (a field of the wrong type, an unparsable quantity). */
    UNREADABLE_WORKLOAD,
    /** Another member of the workload's group was refused, so the group has no PodGroup. */
    GROUP_REJECTED,
    /** Subgroup settings on a gang that has no subgroups. */
    SUBGROUP_SETTINGS_IGNORED,
    /** The pod templates of one gang name different priority classes. */
    PRIORITY_CLASSES_DIFFER,
    /** A StormService whose RoleSets AIBrix has not created yet. */
    WAITING_FOR_ROLE_SETS,
    /** The bridge adds its topology fields to a PodGroup another controller (AIBrix, LWS) made. */
    ADOPTED_POD_GROUP,
    /**
     * LeaderWorkerSet's Volcano provider gangs each LWS group on its own (e.g. each group of a DisaggregatedSet), so a
     * wider gang is impossible.
     */
    GANG_SPLIT_BY_PROVIDER,
    /** The gang's Volcano queue does not exist. */
    QUEUE_MISSING,
    /** The gang's Volcano queue is not Open. */
    QUEUE_NOT_OPEN,
    /** The API server (or Volcano's admission webhook) refused the PodGroup. */
    APPLY_REFUSED,
    /** The PodGroup name the bridge derives is taken by an object the bridge does not own. */
    NAME_TAKEN,
    /** Volcano's PodGroup CRD is not installed: no workload can get a PodGroup. */
    POD_GROUP_CRD_MISSING,
    /**
     * A StatefulSet with {@code podManagementPolicy: OrderedReady} creates its pods one after another, each once the
     * previous runs: its gang starts with one pod (each still placed within the tier), it is not all-or-nothing.
     */
    ORDERED_READY_START,
    /** Pods that request no resources: Volcano places them by backfill anywhere, so their topology is not enforced. */
    BEST_EFFORT_IGNORES_TOPOLOGY,
    /**
     * A subgroup tier on an AIBrix role whose instances are single pods constrains the whole role (all its replicas in
     * one domain, all or none). Not given for group members, whose subgroup is the member by design.
     */
    SUBGROUP_IS_WHOLE_ROLE,
    /**
     * A hard tier and a rollout that may not take a pod down first — {@code maxUnavailable} comes to 0 as the
     * workload's controller resolves it, which Kubernetes' default 25 % does for 1 to 3 replicas: the rollout waits
     * for room in the domain.
     */
    ROLLOUT_NEEDS_ROOM,
    /** A workload in a namespace that has not opted in: no PodGroup (its pods would never be tied to one). */
    NAMESPACE_NOT_OPTED_IN,
    /** A queue the namespace's admins do not let its workloads use: no PodGroup, denied at admission. */
    QUEUE_NOT_ALLOWED,
    /** The gang's minResources exceed what its queue may ever hold (its {@code spec.capability}): no PodGroup. */
    GANG_EXCEEDS_QUEUE,
    /** The gang's minResources exceed the allocatable resources of every node together: no PodGroup. */
    GANG_EXCEEDS_CLUSTER,
    /**
     * The gang (or its largest subgroup) needs more than any domain of its tier holds even empty, counting the nodes
     * that take its pods: hard, no PodGroup (an existing one is kept), denied at admission; soft, a warning.
     */
    GANG_EXCEEDS_DOMAIN,
    /**
     * Pods of the gang share a GB200 ComputeDomain (an IMEX channel claimed through one ResourceClaimTemplate or
     * ResourceClaim), which works only within one NVLink domain, and the gang's tier lets Volcano place them across
     * several (above the tier named {@code nvlink}, or none): the message names the claim and the tier that keeps them in
     * one; the PodGroup is made.
     */
    COMPUTE_DOMAIN_SPANS_NVLINK,
    /**
     * The namespace holds {@code topobridge.workloads.max-podgroups-per-namespace} PodGroups of the bridge: no new one
     * until some go (existing ones are kept and updated).
     */
    POD_GROUP_LIMIT_REACHED,
    /** The PodGroup's new queue is missing or closed: the PodGroup keeps its current queue. */
    QUEUE_CHANGE_HELD,
    /** The gang's tier has no HyperNode yet: Volcano would treat the whole cluster as that tier, so it waits. */
    WAITING_FOR_HYPER_NODES,
    /**
     * A LeaderWorkerSet setting the bridge cannot follow: a {@code groupIdentity} other than {@code Ordinal} (the
     * default) and {@code Hash}, whose groups it could not tell apart.
     */
    UNSUPPORTED_LEADER_WORKER_SET,
    /**
     * A new pod of a LeaderWorkerSet with {@code groupIdentity: Hash} carries no group key (LWS's pod webhook stamps it
     * at creation and did not run before the bridge's): the pod is not tied to a gang.
     */
    GROUP_KEY_UNKNOWN,
    /**
     * A soft gang Volcano placed above the tier it prefers: its achieved tier is higher, or no single HyperNode holds
     * it (a Normal event).
     */
    PLACED_ABOVE_TIER,
    /**
     * A gang pending longer than {@code topobridge.diagnosis.pending-event-after}; the message is its explain sentence,
     * and the Event changes only when the sentence does.
     */
    GANG_PENDING,
    /**
     * {@code highest-tier: auto} (or the subgroup's) found no domain of any tier that could hold the gang (or one
     * subgroup) even when empty: the top tier is used (the gang's, for a subgroup), soft unless the user wrote a mode,
     * and the gang may never fit whole.
     */
    AUTO_TIER_NO_FIT,
    /**
     * Live pods of the gang that do not name its PodGroup (created while the pod webhook was unreachable, or before the
     * workload was annotated): Volcano schedules them outside the gang. The message gives their count and the first
     * five by name, each with the group it names instead; the finding goes once they are recreated.
     */
    UNTIED_PODS,
    /**
     * Live pods of the gang that are in a Kubernetes gang of their own ({@code spec.schedulingGroup}, the workload API's
     * gang scheduling): admission left them out of the gang's Volcano PodGroup, and its tier and size do not apply.
     */
    PODS_IN_NATIVE_GANG,
    /**
     * An autoscaler (HorizontalPodAutoscaler, AIBrix PodAutoscaler) may grow a part of a gang held to a hard tier past
     * what the largest domain of that tier holds even empty: the replicas past that would stay pending.
     */
    AUTOSCALER_EXCEEDS_DOMAIN,
    /**
     * The namespace's PodGroups would reserve more together than its ResourceQuotas, its share of the cluster or the
     * configured amounts allow: the PodGroup is not made (or not grown) until there is room.
     */
    NAMESPACE_RESERVATION_EXCEEDED,
    /**
     * A ResourceQuota of the namespace scoped to the gang's priority class does not leave room for it (a class the
     * namespace may not use at all has a limit of zero): no PodGroup with that class.
     */
    PRIORITY_CLASS_NOT_ALLOWED,
    /**
     * The workload asks for more gangs than the bridge plans for one workload
     * ({@code topobridge.workloads.max-gangs-per-workload}): refused before any of them is planned.
     */
    TOO_MANY_GANGS,
    /**
     * Devices the gang's pods claim through DRA that the bridge cannot count when it sizes the gang ({@code auto},
     * explain): a DeviceClass not in {@code topobridge.workloads.dra-device-classes}, {@code allocationMode: All}, a
     * prioritized list, a missing ResourceClaimTemplate or ResourceClaim, or a claim beyond Kubernetes' limits. The
     * message names each claim, its device class and why; the PodGroup is made all the same.
     */
    DRA_DEVICES_NOT_COUNTED,
    /**
     * A workload with another scheduler's topology annotations (Kueue's, KAI's, LeaderWorkerSet's) that Kueue manages
     * (its {@code kueue.x-k8s.io/queue-name} label) or whose pod template names another scheduler: those annotations
     * are left to that scheduler and make no PodGroup (a Normal event).
     */
    LEFT_TO_OTHER_SCHEDULER,
    /**
     * Another scheduler's annotation the bridge reads but cannot follow in full: KAI's preferred placement next to its
     * required one (the requirement holds; a PodGroup has one tier).
     */
    FOREIGN_KEY_IGNORED,
    /**
     * Slices or segments (Kueue's {@code podset-slice-size}, KAI's {@code segment-size}) on a gang whose pods carry no
     * index the bridge can cut them by (a Deployment, a group of workloads): refused when the slices are required,
     * ignored with a warning when preferred.
     */
    NO_POD_INDEX;

    /** {@code reason} as a warning on every subject ({@code subject: message}), told apart by {@code key}. */
    public static List<Finding> warnings(WorkloadReason reason, List<ObjectRef> subjects, String key, String message) {
        return subjects.stream()
                .map(s -> Finding.warning(reason, s, s + ": " + message).withKey(key))
                .toList();
    }

    /** {@code reason} as a refusal of every subject ({@code subject: message}), told apart by {@code key}. */
    public static List<Finding> refusals(WorkloadReason reason, List<ObjectRef> subjects, String key, String message) {
        return subjects.stream()
                .map(s -> Finding.rejected(reason, s, s + ": " + message).withKey(key))
                .toList();
    }
}
