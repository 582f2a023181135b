package io.topobridge.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.cache.ClusterView;
import io.topobridge.cache.KindRegistry;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.controller.ControllerLifecycle;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.findings.FindingsRegistry;
import io.topobridge.process.ProcessPart;
import io.topobridge.volcano.PodGroup;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Read-only REST API: what the controller manages, what it made and what it noticed. Everything comes from this
 * replica's caches: a request never lists the cluster (answered 503 while a cache still has its first list to make).
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class StatusResource {

    @Inject
    FindingsRegistry findings;

    @Inject
    KindRegistry kinds;

    @Inject
    ControllerLifecycle lifecycle;

    @Inject
    WorkloadCaches caches;

    @Inject
    ClusterView view;

    /** Current findings, optionally of one source ({@code topology}, {@code workloads}, …). */
    @GET
    @Path("/findings")
    public List<FindingView> findings(@QueryParam("source") String source) {
        return (source == null ? findings.all() : findings.of(source))
                .stream().map(FindingView::of).toList();
    }

    /** The HyperNodes the bridge keeps (labelled with its source), as its cache holds them, by name. */
    @GET
    @Path("/hypernodes")
    public Response hyperNodes() {
        if (!kinds.installed(VolcanoApi.HYPERNODE_CRD)) {
            return Response.ok(List.of()).build();
        }
        return view.cachedHyperNodes()
                .map(all -> Response.ok(all.stream()
                                .filter(Topobridge::ours)
                                .sorted(BY_KEY)
                                .toList())
                        .build())
                .orElseGet(() -> syncing("HyperNodes"));
    }

    /** The PodGroups the bridge made (labelled as managed by it), in every namespace, as its cache holds them. */
    @GET
    @Path("/podgroups")
    public Response podGroups() {
        if (!kinds.installed(VolcanoApi.PODGROUP_CRD)) {
            return Response.ok(List.of()).build();
        }
        if (!caches.podGroupsSynced()) {
            return syncing("PodGroups");
        }
        List<PodGroup> ours = caches.allPodGroups().stream()
                .filter(Topobridge::managed)
                .sorted(BY_KEY)
                .toList();
        return Response.ok(ours).build();
    }

    private static final Comparator<HasMetadata> BY_KEY = Comparator.comparing(
                    (HasMetadata o) -> String.valueOf(o.getMetadata().getNamespace()))
            .thenComparing(o -> o.getMetadata().getName());

    private static Response syncing(String what) {
        return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                .header("Retry-After", "2")
                .entity(Map.of("message", "this replica is still listing " + what + " into its cache; retry shortly"))
                .build();
    }

    /** Installed CRDs, managed kinds, this replica's role and the state of each part of the process. */
    @GET
    @Path("/status")
    public Map<String, Object> status() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("started", lifecycle.started());
        out.put("role", lifecycle.follower() ? "follower" : "leader");
        out.put("crds", kinds.snapshot());
        out.put("managedKinds", kinds.managedKinds().stream().map(k -> k.kind()).toList());
        Map<String, Object> parts = new LinkedHashMap<>();
        List<ProcessPart> running = lifecycle.running();
        for (ProcessPart part : lifecycle.parts()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("runs", part.role() == ProcessPart.Role.LEADER_ONLY ? "leader" : "every replica");
            entry.put("running", running.contains(part));
            entry.put("ready", part.ready());
            entry.putAll(part.details());
            parts.put(part.name(), entry);
        }
        out.put("parts", parts);
        return out;
    }
}
