package io.topobridge.perf.placement;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.e2e.KueueTas;
import io.topobridge.e2e.RealCluster;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Role;
import io.topobridge.perf.placement.Gangs.Shape;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kueue's Topology-Aware Scheduling (v0.17, kube-scheduler binding what it admits): each gang a plain pod group, its
 * tiers written as Kueue's annotations, required where the hand-chosen tiers are hard and preferred where soft.
 *
 * <p>Kueue splits a pod group into PodSets, one per pod shape (roles whose pods differ only in labels, as the two
 * 1-GPU roles of {@code storm}, are one PodSet), and fits each PodSet on its own, at the level its pods' annotation
 * names. So a gang of one PodSet gets the gang's tier; a gang of several PodSets gets each role's tier on its PodSet,
 * and the gang's tier over them is not expressed: Kueue's {@code podset-group-name} fits two PodSets in one domain
 * only at one level shared by both and only when one of them has a single pod, so it would replace the role tier
 * rather than add the gang's ({@code llmd}), or not apply at all ({@code ds}: 2 + 2 pods). The hard tiers a gang
 * claims are the ones written as required.
 */
final class KueueRun implements PlacementSystem {

    /**
     * Whether a gang of one PodSet held above the NVLink partition also asks for slices of one pod at the partition
     * level. Kueue then places each chosen partition's share on that partition's own nodes; without slices its node
     * step pools the chosen partitions' nodes and takes them in label order, which may fill a small partition first.
     */
    private final boolean slices;

    KueueRun() {
        this(false);
    }

    KueueRun(boolean slices) {
        this.slices = slices;
    }

    /** Whether the run was asked for: Kueue is built only then (a cold build takes 10 to 20 minutes). */
    static boolean chosen() {
        return Boolean.getBoolean("topobridge.e2e.kueueTas");
    }

    @Override
    public String label() {
        return slices ? "kueue-slices" : "kueue";
    }

    @Override
    public String what() {
        return "Kueue v0.17 Topology-Aware Scheduling pod groups with kube-scheduler (each PodSet required at its"
                + " hard tier; a prefill/decode gang's own tier over its roles' PodSets not expressible"
                + (slices ? "; a one-PodSet gang held above the NVLink partition in slices of 1 pod per partition" : "")
                + ")";
    }

    @Override
    public String comparedWith() {
        return "hand";
    }

    /** The cluster whose Kueue this run started, until {@link #close}. */
    private RealCluster started;

    @Override
    public void open(Context context) {
        started = context.cluster();
        started.kueue().start();
        KueueTas.ensureClusterQueue(client(context));
    }

    /** Stops Kueue and kube-scheduler once the run's namespace is gone (Kueue removes its pods' finalizers). */
    @Override
    public void close() {
        if (started != null) {
            started.kueue().stop();
            started = null;
        }
    }

    @Override
    public void prepare(Context context, String ns) {
        KueueTas.localQueue(client(context), ns);
    }

    /** A Kueue topology request: the level and whether it is required. */
    record Request(String tier, boolean required) {

        String annotation() {
            return required ? KueueTas.REQUIRED : KueueTas.PREFERRED;
        }
    }

    /** Whether Kueue makes one PodSet of the whole gang: its roles' pods differ only in their labels. */
    static boolean onePodSet(Shape s) {
        return s.roles().stream().map(Role::gpus).distinct().count() == 1;
    }

    /**
     * The request each role's pods carry: the gang's when the gang is one PodSet, else the role's own (hard: the
     * examples' role tiers are always hard); none where the shape asks nothing Kueue can write on a PodSet.
     */
    static Map<String, Request> requests(Shape s) {
        Map<String, Request> out = new LinkedHashMap<>();
        for (Role role : s.roles()) {
            if (onePodSet(s)) {
                out.put(role.name(), new Request(s.tier(), s.hard()));
            } else if (s.roleTier() != null) {
                out.put(role.name(), new Request(s.roleTier(), true));
            }
        }
        return out;
    }

    @Override
    public void arrive(Context context, String ns, Arrival a) {
        Map<String, Request> requests = requests(a.shape());
        for (Role role : a.shape().roles()) {
            PodTemplateSpec template = GangObjects.template(
                    a, role, context.gpuNodes(), annotations(a.shape(), requests.get(role.name())), null);
            for (int i = 0; i < role.replicas(); i++) {
                Pod pod = new PodBuilder()
                        .withMetadata(template.getMetadata())
                        .editMetadata()
                        .withName(GangObjects.name(a, role) + "-" + i)
                        .withNamespace(ns)
                        .addToLabels(KueueTas.QUEUE_LABEL, KueueTas.QUEUE)
                        .addToLabels(KueueTas.GROUP_LABEL, a.gang())
                        .endMetadata()
                        .withSpec(template.getSpec())
                        .build();
                client(context).resource(pod).create();
            }
        }
    }

    /** The Kueue keys on the pods of a role of shape {@code s} that carries {@code request} (null: none). */
    Map<String, String> annotations(Shape s, Request request) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(KueueTas.GROUP_COUNT, String.valueOf(s.pods()));
        if (request != null) {
            annotations.put(request.annotation(), KueueTas.level(request.tier()));
            if (slices && onePodSet(s) && request.required() && !request.tier().equals("nvlink")) {
                annotations.put(KueueTas.SLICE_REQUIRED, KueueTas.NVLINK);
                annotations.put(KueueTas.SLICE_SIZE, "1");
            }
        }
        return annotations;
    }

    @Override
    public void depart(Context context, String ns, Arrival a) {
        KueueTas.deleteGroup(client(context), ns, PlacementBenchmark.GANG_LABEL, a.gang());
    }

    /** The tiers written as required: "" for a gang that is one PodSet, else each role's. */
    @Override
    public Map<String, Integer> hardTiers(Context context, String ns, Arrival a) {
        Map<String, Integer> out = new LinkedHashMap<>();
        requests(a.shape()).forEach((role, request) -> {
            if (request.required()) {
                out.put(onePodSet(a.shape()) ? "" : role, Gangs.TIERS.get(request.tier()));
            }
        });
        return out;
    }
}
