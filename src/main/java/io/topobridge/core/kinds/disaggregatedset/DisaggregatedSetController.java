package io.topobridge.core.kinds.disaggregatedset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.Index;
import io.topobridge.core.expand.Names;
import io.topobridge.core.kinds.lws.LwsShape;
import io.topobridge.core.topology.HyperNodeNames;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * LeaderWorkerSet's DisaggregatedSet controller (v0.9.0, {@code reconcileRoleSimple}) for a new set: one
 * LeaderWorkerSet per role, {@code <set>-<revision>-<role>} (the revision is 8 hex digits of SHA-256 over the roles'
 * templates serialized by Go, generated here), labelled with the role's labels and {@code app: <set>-<role>} and the
 * set's name, role and revision (on its pod templates too), with the role's annotations, owned by the set. LWS v0.9
 * has no slices: {@code spec.slices} is ignored, as its CRD drops it.
 */
public final class DisaggregatedSetController extends Controller {

    private static final String DS_REVISION = "disaggregatedset.x-k8s.io/revision";

    private static final String LWS_KIND = Index.kindOf(WorkloadKind.LEADER_WORKER_SET);

    private record Role(
            String name, Map<String, String> labels, Map<String, String> annotations, JsonNode spec, LwsShape shape) {}

    public DisaggregatedSetController() {
        super(WorkloadKind.DISAGGREGATED_SET, true);
    }

    @Override
    public void reconcile(HasMetadata ds, Context ctx, Sink sink) {
        List<Role> roles = ctx.view(ds).memo("roles", () -> roles(ctx.view(ds).spec()));
        String revision = revision(ds, roles, ctx);
        for (Role role : roles) {
            // a role whose LeaderWorkerSet the input has (of this revision or another) is expanded as given
            if (existing(ds, role, ctx).isEmpty() && !sink.create(leaderWorkerSet(ds, role, revision, ctx))) {
                return;
            }
        }
    }

    @Override
    public long weight(HasMetadata ds, Context ctx) {
        long sum = 0;
        for (Role role : ctx.view(ds).memo("roles", () -> roles(ctx.view(ds).spec()))) {
            sum = Build.add(sum, Build.add(1, role.shape().weight()));
        }
        return sum;
    }

    private static List<Role> roles(JsonNode dsSpec) {
        return DisaggregatedSetAdapter.RoleEntry.read(dsSpec, entry -> {
            JsonNode spec = entry.spec();
            // checked as the LWS webhook will check the LeaderWorkerSet made from it
            Map<String, String> annotations = entry.annotations();
            return new Role(
                    entry.name(),
                    entry.labels(),
                    annotations,
                    spec,
                    LwsShape.read(spec, entry.at() + ".spec", annotations));
        });
    }

    /** The roles' templates hashed (generated: DisaggregatedSet hashes Go's serialization of its structs). */
    private static String revision(HasMetadata ds, List<Role> roles, Context ctx) {
        ArrayNode seed = Build.MAPPER.createArrayNode();
        for (Role role : roles) {
            ObjectNode entry = seed.addObject();
            entry.put("name", role.name());
            entry.set("template", role.spec().path("leaderWorkerTemplate"));
        }
        return ctx.compose(ctx.token(
                HyperNodeNames.hash(Build.ns(ds) + "/" + Build.name(ds) + "/" + Names.canonical(seed), 8),
                Names.HEX8_PATTERN,
                "DisaggregatedSet revision"));
    }

    /** The set's LWS of a role the input already has (named with the set and role labels), if any. */
    private static Optional<HasMetadata> existing(HasMetadata ds, Role role, Context ctx) {
        for (HasMetadata lws : ctx.index.list(LWS_KIND, Build.ns(ds))) {
            Map<String, String> labels = Build.labels(lws);
            if (Build.name(ds).equals(labels.get(WorkloadLabels.DS_NAME))
                    && role.name().equals(labels.get(WorkloadLabels.DS_ROLE))) {
                return Optional.of(lws);
            }
        }
        return Optional.empty();
    }

    private static HasMetadata leaderWorkerSet(HasMetadata ds, Role role, String revision, Context ctx) {
        String dsName = Build.name(ds);
        Map<String, String> auto = new LinkedHashMap<>();
        auto.put("app", dsName + "-" + role.name());
        auto.put(WorkloadLabels.DS_ROLE, role.name());
        auto.put(WorkloadLabels.DS_NAME, dsName);
        auto.put(DS_REVISION, revision);

        ObjectNode spec = Build.copy(role.spec());
        spec.put("replicas", Workload.integer(role.spec().get("replicas"), "replicas", 1));
        ObjectNode lwt = Build.objectAt(spec, "leaderWorkerTemplate");
        for (String template : List.of("workerTemplate", "leaderTemplate")) {
            JsonNode node = lwt.get(template);
            if (node == null || !node.isObject()) {
                continue;
            }
            ObjectNode metadata = Build.objectAt((ObjectNode) node, "metadata");
            Map<String, String> labels = Build.merged(
                    Workload.strings(metadata.get("labels"), "spec.roles." + template + ".metadata.labels"), auto);
            metadata.set("labels", Build.MAPPER.valueToTree(Build.sorted(labels)));
        }
        return Build.custom(
                WorkloadKind.LEADER_WORKER_SET,
                Build.meta(
                        ctx.compose(dsName, "-", revision, "-", role.name()),
                        null,
                        Build.namespace(ds),
                        Build.merged(role.labels(), auto),
                        role.annotations(),
                        List.of(Build.owner(WorkloadKind.DISAGGREGATED_SET.apiVersion(), ds, null))),
                spec);
    }
}
