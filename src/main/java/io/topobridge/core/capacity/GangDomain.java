package io.topobridge.core.capacity;

import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.node.Taint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The domain a running hard-tier gang occupies and whether it can still hold the gang: where its replacement pods
 * may go and why they cannot. Volcano (v1.15.1) places a pod of a job that already has pods running only inside the
 * HyperNode of the job's highest allowed tier above where those pods run ({@code job-allocated-hypernode}); that
 * HyperNode is the gang's domain here. Only its usable nodes count (a node cordoned, not Ready or with a
 * {@code NoSchedule}/{@code NoExecute} taint the gang's pods do not tolerate takes none of them; the capacity given
 * says which, see {@link Capacity#forPods}), and only a gang with some pods bound is judged: a gang with none is
 * placed afresh wherever it fits.
 *
 * @param verdict what the domain can do for the gang
 * @param domain the HyperNode, or null when the gang's nodes are in no HyperNode any more
 * @param tier the domain's tier (the gang's highest tier when the domain is unknown)
 * @param tierName the domain's tier name ({@code ""} when unknown)
 * @param pending the gang's pods waiting for a node (replacements), by name
 * @param lost the gang's pods bound to a node that is gone or not Ready, each {@code pod on node (why)}
 * @param unusable the nodes of the domain that take no pod, each {@code node (why)}
 * @param since when the oldest wait began: the creation of the oldest pending pod (null when unknown or none waits)
 * @param sentence one line saying it
 */
public record GangDomain(
        Verdict verdict,
        String domain,
        int tier,
        String tierName,
        List<String> pending,
        List<String> lost,
        List<String> unusable,
        Instant since,
        String sentence) {

    /** What the domain can do for the gang. */
    public enum Verdict {
        /** Every pod runs on a usable node of the domain: nothing to replace. */
        HOLDS,
        /** Pods are to be replaced and the domain's usable nodes have room for them now: Volcano's turn. */
        ROOM,
        /**
         * Pods are to be replaced, and the domain could hold the whole gang on its usable nodes, but not now: other
         * pods take the room.
         */
        NO_ROOM_IN_DOMAIN,
        /**
         * The gang runs short of pods with none waiting to be placed: a member is Terminating on a node that is gone
         * or not Ready, and a controller that names its pods (a StatefulSet's ordinal, a LeaderWorkerSet group's, a
         * RoleSet's) makes no replacement while it is there. Only the pod's end (the node back or deleted, or the pod
         * force-deleted) brings the gang back; a restart would not.
         */
        REPLACEMENT_BLOCKED,
        /** The domain's usable nodes cannot hold the gang even when empty (nodes gone, down or cordoned). */
        DOMAIN_LOST
    }

    public GangDomain {
        pending = List.copyOf(pending);
        lost = List.copyOf(lost);
        unusable = List.copyOf(unusable);
    }

    /** Whether the gang cannot get back to full strength in its domain as it is. */
    public boolean stuck() {
        return verdict == Verdict.NO_ROOM_IN_DOMAIN
                || verdict == Verdict.REPLACEMENT_BLOCKED
                || verdict == Verdict.DOMAIN_LOST;
    }

    /**
     * Whether a hard-tier gang with some pods bound is short of pods: one waits for a node, or is bound to a node that
     * is gone or not ready. Cheap (no capacity needed): the gangs that run whole are passed over with it.
     *
     * @param nodes the state of a node by name, empty when the node does not exist
     */
    public static boolean shortOfPods(GangView gang, Function<String, Optional<NodeState>> nodes) {
        if (!gang.hard()) {
            return false;
        }
        Predicate<PodView> down =
                p -> nodes.apply(p.node()).map(s -> !s.isReady()).orElse(true);
        List<PodView> live = gang.livePods();
        boolean blocking = gang.pods().stream().anyMatch(p -> p.deleting() && p.bound() && down.test(p));
        return live.stream().anyMatch(PodView::bound)
                && (live.stream().anyMatch(p -> !p.bound() || down.test(p))
                        || blocking && live.size() < gang.minMember());
    }

    /**
     * The judgement of a gang with some pods bound and a hard tier; empty for a gang that does not run yet, one that
     * is soft or names no tier (Volcano places its pods anywhere), or whose pods' nodes are all unknown.
     */
    public static Optional<GangDomain> of(GangView gang, Capacity capacity) {
        if (!gang.hard()) {
            return Optional.empty();
        }
        List<PodView> live = gang.livePods();
        List<PodView> bound = live.stream().filter(PodView::bound).toList();
        if (bound.isEmpty()) {
            return Optional.empty();
        }
        Members members = Members.of(live, bound, capacity);
        Forest forest = capacity.forest();
        // where Volcano keeps the job: the highest allowed HyperNode above the nodes its pods are bound to
        List<String> placedNodes = bound.stream()
                .map(PodView::node)
                .filter(forest::placed)
                .distinct()
                .toList();
        Optional<HyperNodeView> lowest = forest.lowestCommon(placedNodes);
        if (lowest.isEmpty()) {
            return members.whole() ? Optional.empty() : Optional.of(noDomain(gang, members, forest, placedNodes));
        }
        HyperNodeView domain = lowest.get();
        for (HyperNodeView up : forest.ancestors(placedNodes.get(0))) {
            if (up.tier() > gang.highestTier()) {
                break;
            }
            if (up.tier() > domain.tier()) {
                domain = up;
            }
        }
        Room room = Room.of(domain, capacity);
        String where = domain.name() + " (tier " + domain.tier()
                + (domain.tierName().isEmpty() ? "" : ", " + domain.tierName()) + ")";
        List<String> blocking = members.whole() ? blocking(gang, capacity) : List.of();
        if (!blocking.isEmpty()) {
            return Optional.of(in(
                    domain,
                    Verdict.REPLACEMENT_BLOCKED,
                    List.of(),
                    blocking,
                    room.unusable(),
                    null,
                    "runs " + live.size() + " of its " + gang.minMember() + " pods within " + where
                            + " and no replacement is pending: " + String.join(", ", named(blocking))
                            + "; its controller makes no pod under a name still taken (a StatefulSet's ordinal, a"
                            + " LeaderWorkerSet group's, a RoleSet's), so the gang runs short until that pod is gone:"
                            + " the node back or deleted, or the pod force-deleted (kubectl delete pod --force) or the"
                            + " node tainted node.kubernetes.io/out-of-service once it is known to be down"));
        }
        if (members.whole()) {
            List<String> unusable = room.unusable();
            return Optional.of(in(
                    domain,
                    Verdict.HOLDS,
                    List.of(),
                    List.of(),
                    unusable,
                    null,
                    "runs within " + where
                            + (unusable.isEmpty() ? "" : "; takes no new pods there: " + String.join(", ", unusable))));
        }
        return Optional.of(shortOfPods(members, domain, room, where, capacity.accelerators()));
    }

    /** A gang whose bound pods lie in no single HyperNode any more, with pods to place. */
    private static GangDomain noDomain(GangView gang, Members members, Forest forest, List<String> placedNodes) {
        int allowed = gang.highestTier();
        String why = placedNodes.isEmpty()
                ? "the nodes its pods run on are in no HyperNode any more"
                : "no single HyperNode holds the nodes its pods run on";
        return new GangDomain(
                Verdict.DOMAIN_LOST,
                null,
                allowed,
                forest.tiers().getOrDefault(allowed, ""),
                members.pendingNames(),
                members.lost(),
                List.of(),
                members.since(),
                "its tier-" + allowed + " domain is lost: " + why + members.waits());
    }

    /** A gang with pods to place in its domain: whether the domain has room for them, or could ever hold the gang. */
    private static GangDomain shortOfPods(
            Members members, HyperNodeView domain, Room room, String where, Accelerators accelerators) {
        // what has to find room: the pending pods, and a replacement for each pod on a node that is gone or down
        List<Amounts> toPlace = new ArrayList<>();
        members.pending().forEach(p -> toPlace.add(p.requests()));
        members.lostPods().forEach(p -> toPlace.add(p.requests()));
        // what the domain would have to hold when empty: every member, on the usable nodes alone
        List<Amounts> whole = new ArrayList<>(toPlace);
        members.bound().stream().filter(p -> !members.lostPods().contains(p)).forEach(p -> whole.add(p.requests()));
        Amounts need = sum(toPlace);
        Amounts free = sum(room.free());
        String resource = Amounts.spoken(need, free, accelerators);
        String needs = resource == null
                ? ""
                : "; " + (toPlace.size() == 1 ? "it needs " : "they need ")
                        + Amounts.show(resource, need.get(resource)) + " " + resource + ", the usable nodes have "
                        + Amounts.show(resource, free.get(resource)) + " free of "
                        + Amounts.show(resource, sum(room.allocatable()).get(resource));
        String unusableText = room.unusable().isEmpty() ? "" : "; no new pods on " + String.join(", ", room.unusable());
        String pods = toPlace.size() == 1 ? "the pod" : toPlace.size() + " pods";
        Verdict verdict;
        String sentence;
        if (!Amounts.packs(whole, room.allocatable(), accelerators)) {
            verdict = Verdict.DOMAIN_LOST;
            sentence = where + " can no longer hold the gang: its " + whole.size()
                    + " pods do not fit its usable nodes even when they are empty" + needs + unusableText
                    + members.waits();
        } else if (!Amounts.packs(toPlace, room.free(), accelerators)) {
            verdict = Verdict.NO_ROOM_IN_DOMAIN;
            sentence = "no room in " + where + " for " + pods + " the gang is short of" + needs + unusableText
                    + members.waits();
        } else {
            verdict = Verdict.ROOM;
            sentence = where + " has room for " + pods + " the gang is short of" + needs + unusableText
                    + members.waits() + "; waiting for Volcano";
        }
        return in(domain, verdict, members.pendingNames(), members.lost(), room.unusable(), members.since(), sentence);
    }

    private static GangDomain in(
            HyperNodeView domain,
            Verdict verdict,
            List<String> pending,
            List<String> lost,
            List<String> unusable,
            Instant since,
            String sentence) {
        return new GangDomain(
                verdict, domain.name(), domain.tier(), domain.tierName(), pending, lost, unusable, since, sentence);
    }

    /**
     * A running gang's live pods as its domain sees them: those bound, those pending (replacements, by sorted name in
     * {@code pendingNames}), those bound to a node gone or not Ready ({@code lostPods}, each said in {@code lost}),
     * and when the oldest wait began.
     */
    private record Members(
            List<PodView> bound,
            List<PodView> pending,
            List<PodView> lostPods,
            List<String> lost,
            List<String> pendingNames,
            Instant since) {

        static Members of(List<PodView> live, List<PodView> bound, Capacity capacity) {
            List<PodView> pending = live.stream().filter(p -> !p.bound()).toList();
            List<PodView> lostPods = new ArrayList<>();
            List<String> lost = new ArrayList<>();
            for (PodView pod : bound) {
                String down = down(capacity, pod);
                if (down != null) {
                    lostPods.add(pod);
                    lost.add(pod.name() + " on " + pod.node() + " (" + down + ")");
                }
            }
            // the oldest creation known (a pod whose creation is unknown says nothing)
            Instant since = pending.stream()
                    .map(PodView::created)
                    .filter(Objects::nonNull)
                    .min(Comparator.naturalOrder())
                    .orElse(null);
            List<String> pendingNames =
                    pending.stream().map(PodView::name).sorted().toList();
            return new Members(bound, pending, lostPods, lost, pendingNames, since);
        }

        /** Whether no pod is to be placed: none pending, none on a node gone or down. */
        boolean whole() {
            return pending.isEmpty() && lostPods.isEmpty();
        }

        /** {@code ; pending: a, b; lost: c on n (why); waiting since T}. */
        String waits() {
            StringBuilder out = new StringBuilder();
            if (!pendingNames.isEmpty()) {
                out.append("; pending: ").append(String.join(", ", named(pendingNames)));
            }
            if (!lost.isEmpty()) {
                out.append("; lost: ").append(String.join(", ", named(lost)));
            }
            if (since != null) {
                out.append("; waiting since ").append(since);
            }
            return out.toString();
        }
    }

    /**
     * The nodes under a domain: those that take none of the gang's pods ({@code unusable}, each {@code node (why)}),
     * and what is free and allocatable on each of the others.
     */
    private record Room(List<String> unusable, List<Amounts> free, List<Amounts> allocatable) {

        static Room of(HyperNodeView domain, Capacity capacity) {
            List<String> unusable = new ArrayList<>();
            List<Amounts> free = new ArrayList<>();
            List<Amounts> allocatable = new ArrayList<>();
            for (String node : capacity.forest().nodesUnder(domain.name())) {
                NodeView view = capacity.node(node);
                if (view == null) {
                    continue;
                }
                String why = GangDomain.unusable(capacity, view);
                if (why != null) {
                    unusable.add(node + " (" + why + ")");
                } else {
                    free.add(capacity.free(node));
                    allocatable.add(view.allocatable());
                }
            }
            return new Room(unusable, free, allocatable);
        }
    }

    /**
     * The HyperNodes of the gang's highest tier, other than {@code except}, whose usable nodes have room now for every
     * live pod of the gang at once: where Volcano could place the whole gang afresh. Sorted by name.
     */
    public static List<String> otherDomainsWithRoom(GangView gang, Capacity capacity, String except) {
        if (gang.highestTier() == null) {
            return List.of();
        }
        List<Amounts> pods = gang.livePods().stream().map(PodView::requests).toList();
        return capacity.forest().atTier(gang.highestTier()).stream()
                .filter(candidate -> !candidate.name().equals(except))
                .filter(candidate -> {
                    List<Amounts> free = Room.of(candidate, capacity).free();
                    return !free.isEmpty() && Amounts.packs(pods, free, capacity.accelerators());
                })
                .map(HyperNodeView::name)
                .sorted()
                .toList();
    }

    /**
     * The gang's pods that are Terminating on a node gone or not Ready while the gang runs short of its minimum, each
     * {@code pod Terminating on node (why)}: empty when the gang has its minimum of live pods.
     */
    private static List<String> blocking(GangView gang, Capacity capacity) {
        if (gang.livePods().size() >= gang.minMember()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (PodView pod : gang.pods()) {
            String down = pod.deleting() && pod.bound() ? down(capacity, pod) : null;
            if (down != null) {
                out.add(pod.name() + " Terminating on " + pod.node() + " (" + down + ")");
            }
        }
        out.sort(null);
        return out;
    }

    /** Why a bound pod's node holds it no more ({@code node gone}, {@link NodeState#whyClosed}), or null if Ready. */
    private static String down(Capacity capacity, PodView pod) {
        NodeView node = capacity.node(pod.node());
        return node == null
                ? "node gone"
                : node.state().isReady() ? null : node.state().whyClosed();
    }

    /** Why the gang's pods cannot go to a node ({@code cordoned}, {@code not ready…}, {@code tainted k=v:E}), or null. */
    private static String unusable(Capacity capacity, NodeView node) {
        Withheld withheld = capacity.withheld(node.name());
        if (withheld.isEmpty()) {
            return null;
        }
        NodeState state = node.state();
        if (state.closed()) {
            return state.whyClosed();
        }
        Taint taint = withheld.example();
        return "tainted" + (taint == null ? "" : " " + taint);
    }

    private static Amounts sum(List<Amounts> amounts) {
        return amounts.stream().reduce(Amounts.NONE, Amounts::plus);
    }

    /** At most five names, then a count. */
    private static List<String> named(List<String> names) {
        if (names.size() <= 5) {
            return names;
        }
        List<String> out = new ArrayList<>(names.subList(0, 5));
        out.add((names.size() - 5) + " more");
        return out;
    }

    /** Orders judgements worst first (lost, no room, room, holds). */
    public static final Comparator<GangDomain> WORST_FIRST =
            Comparator.comparing((GangDomain d) -> -d.verdict().ordinal());
}
