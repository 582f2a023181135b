package io.topobridge.core.workload.autotier;

import io.topobridge.core.Topobridge;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.node.Toleration;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.GangIntent;
import io.topobridge.core.workload.annotation.TopologyMode;
import io.topobridge.core.workload.dra.DraDevices;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Puts {@link AutoTier}'s choice into one PodGroup's plan: the gang's need is the sum of its pods' requests, a
 * subgroup's is its size times the largest pod it may hold; the intent comes back with tier numbers (and modes) in
 * place of {@code auto}, the PodGroup annotations that say why, and the findings.
 */
public final class AutoTiers {

    /** The intent to build with, the annotations explaining the choice, what was noticed; {@code refused}: no PodGroup. */
    public record Resolution(
            GangIntent intent, Map<String, String> annotations, List<Finding> findings, boolean refused) {
        public Resolution {
            annotations = Map.copyOf(annotations);
            findings = List.copyOf(findings);
        }
    }

    /**
     * The intent as it stands when it names no {@code auto} tier. {@code waitForRoom}: the gang may still wait for
     * room in its chosen tiers, which are then {@code hard} even without room today; {@code devices}: the devices the
     * gang's pods claim through DRA (each pod its own claims' devices, the gang its shared claims' once), which they
     * need besides their requests.
     */
    public static Resolution resolve(
            GangPlan plan,
            GangIntent intent,
            TierCatalog tiers,
            TierDomains domains,
            int minDomains,
            List<ObjectRef> subjects,
            boolean waitForRoom,
            DraDevices.GangDevices devices) {
        if (!intent.autoTier() && !intent.autoSubgroupTier()) {
            return new Resolution(intent, Map.of(), List.of(), false);
        }
        List<Finding> findings = new ArrayList<>();
        if (domains.isEmpty() || tiers.isEmpty()) {
            findings.addAll(WorkloadReason.refusals(
                    WorkloadReason.TIERS_UNKNOWN,
                    subjects,
                    Topobridge.HIGHEST_TIER + " auto",
                    (intent.autoTier() ? Topobridge.HIGHEST_TIER : Topobridge.SUBGROUP_HIGHEST_TIER)
                            + "=\"auto\" chooses the tier from the sizes of the HyperNodes' domains, and no HyperNode is"
                            + " known yet; PodGroup " + plan.name() + " waits for them"));
            return new Resolution(intent, Map.of(), findings, true);
        }
        // only the nodes that take the gang's pods are room: a taint one of its roles does not tolerate withholds a
        // node
        domains = domains.usableBy(tolerations(plan.roles()));
        String gang = plan.scope().namespace() + "/" + plan.name();
        Map<String, String> annotations = new TreeMap<>();
        Integer gangTier = intent.highestTier();
        TopologyMode gangMode = intent.mode();
        if (intent.autoTier()) {
            Amounts gangNeed = need(plan.roles(), devices);
            AutoTier.Choice choice = AutoTier.choose(
                    gangNeed,
                    domains,
                    above(plan, intent, gangNeed, tiers, domains, minDomains, gang, waitForRoom, devices),
                    tiers.top(),
                    minDomains,
                    gang,
                    intent.mode(),
                    true,
                    waitForRoom);
            gangTier = choice.tier();
            gangMode = choice.mode();
            if (intent.subgroupTier() != null && intent.subgroupTier() > gangTier) {
                // subgroups are placed inside the gang's domain: the gang's tier is at least theirs
                gangTier = intent.subgroupTier();
            }
            annotations.put(Topobridge.CHOSEN_TIER, choice.explanation());
            if (!choice.fits()) {
                noFit(findings, subjects, plan.name(), "the gang", choice);
            }
        }
        Integer subTier = intent.subgroupTier();
        TopologyMode subMode = intent.subgroupMode();
        if (intent.autoSubgroupTier()) {
            int highest = gangTier != null ? gangTier : tiers.top();
            AutoTier.Choice choice =
                    subgroupChoice(plan, intent, highest, domains, minDomains, gang, waitForRoom, devices);
            if (choice != null) {
                subTier = choice.tier();
                subMode = choice.mode();
                if (intent.subgroupMode() == null
                        && subMode == TopologyMode.HARD
                        && plan.level() != GangPlan.Level.SUBGROUP
                        && subgroupSpread(plan, domains, gang, subTier)) {
                    // as for the whole gang: a subgroup placed soft across domains stays soft, or the PodGroup would
                    // promise a domain its running pods are not in
                    subMode = TopologyMode.SOFT;
                }
                annotations.put(Topobridge.CHOSEN_SUBGROUP_TIER, choice.explanation());
                if (!choice.fits()) {
                    noFit(findings, subjects, plan.name(), "one subgroup", choice);
                }
            }
        }
        return new Resolution(intent.resolved(gangTier, gangMode, subTier, subMode), annotations, findings, false);
    }

    /** The subgroups' choice of a tier up to {@code highest}, or null when the gang has no subgroup to size. */
    private static AutoTier.Choice subgroupChoice(
            GangPlan plan,
            GangIntent intent,
            int highest,
            TierDomains domains,
            int minDomains,
            String gang,
            boolean waitForRoom,
            DraDevices.GangDevices devices) {
        // a PodGroup that is itself one subgroup: its own pods across domains keep it soft, as a gang's do
        boolean wholePodGroup = plan.level() == GangPlan.Level.SUBGROUP;
        Amounts subNeed = wholePodGroup ? need(plan.roles(), devices) : subgroupNeed(plan, devices);
        if (subNeed == null) {
            return null;
        }
        return AutoTier.choose(
                subNeed, domains, 1, highest, minDomains, gang, intent.subgroupMode(), wholePodGroup, waitForRoom);
    }

    /**
     * The lowest tier the gang's own choice starts from: 1, or the tier above its subgroups' when the gang holds more
     * than one subgroup and each is held to a tier (written, or chosen by {@code auto}). Each role or replica then
     * keeps its own domain, and the gang (a prefill with its decode, replicas of one model) shares the next tier up
     * rather than being packed into one domain of the subgroups' tier: held there, a pair can only start where one
     * domain has room for both, and the placement benchmark's pairs so held took the whole NVLink partitions that the
     * widest tensor-parallel gangs wait for.
     */
    private static int above(
            GangPlan plan,
            GangIntent intent,
            Amounts gangNeed,
            TierCatalog tiers,
            TierDomains domains,
            int minDomains,
            String gang,
            boolean waitForRoom,
            DraDevices.GangDevices devices) {
        if (plan.level() != GangPlan.Level.GANG || (!intent.autoSubgroupTier() && intent.subgroupTier() == null)) {
            return 1;
        }
        Amounts subNeed = subgroupNeed(plan, devices);
        if (subNeed == null
                || AutoTier.relevant(subNeed, domains.accelerators())
                        .covers(AutoTier.relevant(gangNeed, domains.accelerators()))) {
            return 1; // one subgroup is the whole gang
        }
        int held = intent.autoSubgroupTier()
                ? AutoTier.choose(subNeed, domains, 1, tiers.top(), minDomains, gang, null, false, waitForRoom)
                        .tier()
                : intent.subgroupTier();
        return held + 1;
    }

    /**
     * Whether the bound pods of one subgroup instance of the gang sit in more than one domain of {@code tier}: the
     * pods split as Volcano splits them (the first subgroup whose selector takes a pod, keyed by the values of its
     * {@code matchLabelKeys}); a node under no domain of the tier counts as a domain of its own.
     */
    static boolean subgroupSpread(GangPlan plan, TierDomains domains, String gang, int tier) {
        Map<String, Set<String>> domainsByInstance = new HashMap<>();
        for (PodView pod : domains.boundPodsOf(gang)) {
            SubGroupPlan sub = plan.subGroups().stream()
                    .filter(s -> takes(s, pod.labels()))
                    .findFirst()
                    .orElse(null);
            if (sub == null || !sub.matchLabelKeys().stream().allMatch(pod.labels()::containsKey)) {
                continue;
            }
            StringBuilder key = new StringBuilder(sub.name());
            sub.matchLabelKeys()
                    .forEach(k -> key.append('/').append(pod.labels().get(k)));
            String domain = domains.domainOf(pod.node(), tier).orElse("node " + pod.node());
            Set<String> seen = domainsByInstance.computeIfAbsent(key.toString(), k -> new HashSet<>());
            seen.add(domain);
            if (seen.size() > 1) {
                return true;
            }
        }
        return false;
    }

    /** Whether a subgroup's selector takes a pod: its labels, its required keys, none of its excluded values. */
    private static boolean takes(SubGroupPlan sub, Map<String, String> labels) {
        return labels.entrySet().containsAll(sub.matchLabels().entrySet())
                && labels.keySet().containsAll(sub.existsKeys())
                && sub.excluded().entrySet().stream().noneMatch(e -> {
                    String value = labels.get(e.getKey());
                    return value != null && e.getValue().contains(value);
                });
    }

    private static void noFit(
            List<Finding> findings, List<ObjectRef> subjects, String podGroup, String what, AutoTier.Choice choice) {
        findings.addAll(WorkloadReason.warnings(
                WorkloadReason.AUTO_TIER_NO_FIT,
                subjects,
                podGroup + " " + what,
                "auto tier for "
                        + what + " of PodGroup " + podGroup
                        + ": no domain of any tier could hold it even when empty,"
                        + " so it gets tier " + choice.tier() + ", "
                        + choice.mode().name().toLowerCase(Locale.ROOT)
                        + " (" + choice.explanation() + ")"));
    }

    /**
     * Each role's effective tolerations (those of its pod template and those a request of an extended resource brings,
     * see {@link Toleration#forPod}): a tainted node is room for the gang when every role tolerates its taints.
     */
    static List<List<Toleration>> tolerations(List<PodRole> roles) {
        return roles.stream()
                .filter(r -> r.count() > 0 && r.spec() != null)
                .map(r -> Toleration.forPod(
                        Toleration.of(r.spec().getTolerations()),
                        PodRequests.of(r.spec()).canonical().keySet()))
                .toList();
    }

    /** What all pods of the roles request together, with the devices they claim through DRA. */
    public static Amounts need(List<PodRole> roles, DraDevices.GangDevices devices) {
        Map<Object, Amounts> perSpec = new IdentityHashMap<>();
        return roles.stream()
                .filter(r -> r.count() > 0 && r.spec() != null)
                .map(r -> times(perSpec.computeIfAbsent(r.spec(), s -> perPod(r, devices)), r.count()))
                .reduce(devices.shared(), Amounts::plus);
    }

    /**
     * The largest subgroup's need: each subgroup's size times the largest pod of the roles it may select (those whose
     * added labels agree with its labels, or whose task-spec is its name; every role when none says), resource by
     * resource, each pod needing also the devices of its own DRA claims. Null when the plan has no subgroup that
     * requests anything.
     */
    static Amounts subgroupNeed(GangPlan plan, DraDevices.GangDevices devices) {
        Amounts largest = null;
        List<PodRole> active = plan.roles().stream()
                .filter(r -> r.count() > 0 && r.spec() != null)
                .toList();
        for (SubGroupPlan sub : plan.subGroups()) {
            if (sub.bestEffort() || sub.size() <= 0) {
                continue;
            }
            List<PodRole> roles = active.stream().filter(r -> selects(sub, r)).toList();
            if (roles.isEmpty()) {
                roles = active;
            }
            Amounts pod = roles.stream().map(r -> perPod(r, devices)).reduce(Amounts.NONE, AutoTiers::max);
            Amounts need = times(pod, sub.size());
            largest = largest == null ? need : max(largest, need);
        }
        return largest;
    }

    private static boolean selects(SubGroupPlan sub, PodRole role) {
        if (sub.name().equals(role.taskSpec())) {
            return true;
        }
        boolean overlap = false;
        for (var label : sub.matchLabels().entrySet()) {
            String mine = role.podLabels().get(label.getKey());
            if (mine != null) {
                if (!mine.equals(label.getValue())) {
                    return false;
                }
                overlap = true;
            }
        }
        return overlap;
    }

    private static Amounts perPod(PodRole role, DraDevices.GangDevices devices) {
        return Amounts.parse(PodRequests.of(role.spec()).canonical()).plus(devices.perPod(role.spec()));
    }

    /** Each amount {@code count} times. */
    public static Amounts times(Amounts one, long count) {
        Map<String, BigDecimal> out = new TreeMap<>();
        one.values().forEach((k, v) -> out.put(k, v.multiply(BigDecimal.valueOf(count))));
        return new Amounts(out);
    }

    private static Amounts max(Amounts a, Amounts b) {
        Map<String, BigDecimal> out = new TreeMap<>(a.values());
        b.values().forEach((k, v) -> out.merge(k, v, BigDecimal::max));
        return new Amounts(out);
    }
}
