package io.topobridge.api;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.controller.ControllerLifecycle;
import io.topobridge.controller.KindRegistry;
import io.topobridge.controller.ProcessPart;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.findings.FindingsRegistry;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.PodGroup;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Read-only REST API: what the controller manages, what it made and what it noticed. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class StatusResource {

    private final FindingsRegistry findings;
    private final KindRegistry kinds;
    private final ControllerLifecycle lifecycle;
    private final KubernetesClient client;

    public StatusResource(
            FindingsRegistry findings, KindRegistry kinds, ControllerLifecycle lifecycle, KubernetesClient client) {
        this.findings = findings;
        this.kinds = kinds;
        this.lifecycle = lifecycle;
        this.client = client;
    }

    /** Current findings, optionally of one source ({@code topology}, {@code workloads}, …). */
    @GET
    @Path("/findings")
    public List<FindingView> findings(@QueryParam("source") String source) {
        return (source == null ? findings.all() : findings.of(source))
                .stream().map(FindingView::of).toList();
    }

    /** The HyperNodes the bridge keeps (labelled with its source), as stored by the API server. */
    @GET
    @Path("/hypernodes")
    public List<HyperNode> hyperNodes() {
        if (!kinds.installed(VolcanoApi.HYPERNODE_CRD)) {
            return List.of();
        }
        return client.resources(HyperNode.class)
                .withLabel(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE)
                .list()
                .getItems();
    }

    /** The PodGroups the bridge made (labelled as managed by it), in every namespace. */
    @GET
    @Path("/podgroups")
    public List<PodGroup> podGroups() {
        if (!kinds.installed(VolcanoApi.PODGROUP_CRD)) {
            return List.of();
        }
        return client.resources(PodGroup.class)
                .inAnyNamespace()
                .withLabel(Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)
                .list()
                .getItems();
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
