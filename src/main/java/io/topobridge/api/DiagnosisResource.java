package io.topobridge.api;

import io.topobridge.cache.ClusterView;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.diagnosis.DoctorCheck;
import io.topobridge.core.diagnosis.Explain;
import io.topobridge.core.diagnosis.Explanation;
import io.topobridge.core.diagnosis.TopologyPicture;
import io.topobridge.core.finding.UserText;
import io.topobridge.diagnosis.DoctorService;
import io.topobridge.diagnosis.Gangs;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Diagnosis over HTTP, from the caches of this replica: {@code /api/doctor}, {@code /api/gangs/{namespace}/{name}}
 * (explain), {@code /api/topology} (what the page draws) and the page itself, {@code /topology}.
 */
@Path("/api")
public class DiagnosisResource {

    /** The answer of {@code /api/gangs/{namespace}/{name}} and {@code explain -o json}: a name and its gangs. */
    public record GangsDocument(String namespace, String name, List<Explanation> gangs) {}

    @Inject
    DoctorService doctor;

    @Inject
    Gangs gangs;

    @Inject
    ClusterView view;

    /** Every doctor check with its status and message, and the worst status. */
    @GET
    @Path("/doctor")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> doctor() {
        DoctorService.Run run = doctor.run();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", DoctorCheck.worst(run.checks()).name().toLowerCase(Locale.ROOT));
        out.put(
                "checks",
                run.checks().stream()
                        .map(c -> Map.of(
                                "name",
                                c.name(),
                                "status",
                                c.status().name().toLowerCase(Locale.ROOT),
                                "message",
                                c.message()))
                        .toList());
        return out;
    }

    /** The gangs a PodGroup or workload name means, explained; 404 naming what was looked for when none. */
    @GET
    @Path("/gangs/{namespace}/{name}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response gang(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        List<Gangs.Managed> found = gangs.find(namespace, name);
        if (found.isEmpty()) {
            return Response.status(Response.Status.NOT_FOUND)
                    .type(MediaType.APPLICATION_JSON)
                    .entity(Map.of(
                            "message",
                            "no gang named " + UserText.quote(name) + " in namespace "
                                    + UserText.quote(namespace)
                                    + ": neither a PodGroup the bridge manages nor a workload"
                                    + " with one"))
                    .build();
        }
        Capacity capacity = view.capacity();
        List<Explanation> explained =
                found.stream().map(m -> Explain.of(m.gang(), capacity)).toList();
        return Response.ok(new GangsDocument(namespace, name, explained)).build();
    }

    /** The HyperNode forest with capacity and gangs, as the page draws it. */
    @GET
    @Path("/topology")
    @Produces(MediaType.APPLICATION_JSON)
    public TopologyPicture topology() {
        Capacity capacity = view.capacity();
        return TopologyPicture.of(
                capacity,
                gangs.all().stream().map(m -> Explain.of(m.gang(), capacity)).toList());
    }
}
