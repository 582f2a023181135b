package io.topobridge.perf.placement;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.topobridge.e2e.Bridge;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Role;
import io.topobridge.perf.placement.Gangs.Shape;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bridge's runs: Deployments in an opted-in namespace annotated with the examples' hand-chosen tiers
 * ({@code hand}), with {@code highest-tier: auto} ({@code auto}), with {@code auto} and the modes the hand-chosen
 * run writes ({@code auto-mode}: the tier choice judged on its own, the mode being the user's), or with {@code auto}
 * served by a bridge with another {@code topobridge.workloads.auto-wait-for-room} ({@code auto-wait}). The hard
 * tiers a gang claims are those of the PodGroup the bridge wrote.
 */
final class BridgeRun implements PlacementSystem {

    enum Tiers {
        HAND,
        AUTO,
        AUTO_MODE,
        AUTO_WAIT
    }

    private final Tiers tiers;
    private final Duration autoWait;
    private Bridge waiting;

    BridgeRun(Tiers tiers, Duration autoWait) {
        this.tiers = tiers;
        this.autoWait = autoWait;
    }

    @Override
    public String label() {
        return tiers.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    @Override
    public String prefix() {
        return tiers == Tiers.HAND ? "placement_" : PlacementSystem.super.prefix();
    }

    boolean auto() {
        return tiers != Tiers.HAND;
    }

    @Override
    public String what() {
        return switch (tiers) {
            case HAND -> "tiers chosen by hand as in the examples";
            case AUTO -> "topobridge.io/highest-tier: auto (the bridge's defaults)";
            case AUTO_MODE -> "topobridge.io/highest-tier: auto with the hand-chosen run's topobridge.io/mode";
            case AUTO_WAIT -> "topobridge.io/highest-tier: auto, auto-wait-for-room " + autoWait.toSeconds() + " s";
        };
    }

    @Override
    public String comparedWith() {
        return auto() ? "hand" : "unaware";
    }

    @Override
    public void open(Context context) {
        if (tiers != Tiers.AUTO_WAIT) {
            context.cluster().bridge();
            return;
        }
        context.cluster().stopBridge();
        waiting = Bridge.on(context.cluster(), "topobridge-auto-wait")
                .set("topobridge.workloads.auto-wait-for-room", autoWait.toMillis() + "ms")
                .start()
                .awaitReady(Duration.ofSeconds(120));
    }

    @Override
    public void close() {
        if (waiting != null) {
            waiting.close();
            waiting = null;
        }
    }

    @Override
    public Map<String, String> namespaceLabels() {
        return Map.of("topobridge.io/enabled", "true");
    }

    @Override
    public void arrive(Context context, String ns, Arrival a) {
        boolean first = true;
        for (Role role : a.shape().roles()) {
            client(context)
                    .resource(GangObjects.deployment(
                            ns,
                            a,
                            role,
                            annotations(a, first),
                            GangObjects.template(a, role, context.gpuNodes(), Map.of(), null)))
                    .create();
            first = false;
        }
    }

    @Override
    public void depart(Context context, String ns, Arrival a) {
        GangObjects.deleteDeployments(client(context), ns, a);
    }

    private Map<String, String> annotations(Arrival a, boolean first) {
        Map<String, String> out = new LinkedHashMap<>();
        Shape s = a.shape();
        if (s.prefillDecode()) {
            out.put("topobridge.io/group", a.gang());
        }
        if (!first) {
            return out;
        }
        if (auto()) {
            out.put("topobridge.io/highest-tier", "auto");
            if (tiers == Tiers.AUTO_MODE) {
                out.put("topobridge.io/mode", s.mode());
            }
            if (s.roleTier() != null) {
                out.put("topobridge.io/subgroup-highest-tier", "auto");
            }
        } else {
            out.put("topobridge.io/highest-tier", s.tier());
            out.put("topobridge.io/mode", s.mode());
            if (s.roleTier() != null) {
                out.put("topobridge.io/subgroup-highest-tier", s.roleTier());
            }
        }
        return out;
    }

    /** The hard tiers of the PodGroup the bridge wrote: "" for the gang, the role for each subgroup. */
    @Override
    @SuppressWarnings("unchecked")
    public Map<String, Integer> hardTiers(Context context, String ns, Arrival a) {
        String name = (a.shape().prefillDecode() ? "tb-group-" : "tb-deploy-") + a.gang();
        GenericKubernetesResource pg = client(context)
                .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(ns)
                .withName(name)
                .get();
        Map<String, Integer> out = new LinkedHashMap<>();
        if (pg == null) {
            return out;
        }
        Map<String, Object> spec =
                (Map<String, Object>) pg.getAdditionalProperties().get("spec");
        Map<String, Object> topology = (Map<String, Object>) spec.get("networkTopology");
        if (topology != null && "hard".equals(topology.get("mode"))) {
            out.put("", ((Number) topology.get("highestTierAllowed")).intValue());
        }
        for (Map<String, Object> sub : (List<Map<String, Object>>) spec.getOrDefault("subGroupPolicy", List.of())) {
            Map<String, Object> t = (Map<String, Object>) sub.get("networkTopology");
            if (t == null || !"hard".equals(t.get("mode"))) {
                continue;
            }
            String subgroup = String.valueOf(sub.get("name"));
            for (Role role : a.shape().roles()) {
                if (subgroup.equals("deploy-" + GangObjects.name(a, role))) {
                    out.put(role.name(), ((Number) t.get("highestTierAllowed")).intValue());
                }
            }
        }
        return out;
    }
}
