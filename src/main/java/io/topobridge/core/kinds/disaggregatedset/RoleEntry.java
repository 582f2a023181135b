package io.topobridge.core.kinds.disaggregatedset;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.core.workload.kind.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One entry of a DisaggregatedSet's {@code spec.roles}, its name and metadata checked: the one reading of the roles
 * list that both the adapter and the emulated controller start from. The rest of an entry is read as each needs it.
 *
 * @param name the role's name (never empty)
 * @param at where the entry is, for messages ({@code spec.roles[0]})
 */
record RoleEntry(String name, String at, JsonNode node, JsonNode metadata) {

    /** Each entry of {@code spec.roles} made into a role by {@code each}, entry by entry, in order. */
    static <T> List<T> read(JsonNode spec, Function<RoleEntry, T> each) {
        JsonNode roles = Workload.array(spec.get("roles"), "spec.roles");
        List<T> out = new ArrayList<>();
        for (int i = 0; i < roles.size(); i++) {
            String at = "spec.roles[" + i + "]";
            JsonNode role = Workload.object(roles.get(i), at);
            String name = Workload.text(role.get("name"), at + ".name", "");
            if (name.isEmpty()) {
                throw new IllegalArgumentException(at + ".name is missing");
            }
            out.add(each.apply(new RoleEntry(name, at, role, Workload.object(role.get("metadata"), at + ".metadata"))));
        }
        return out;
    }

    /** The role's LeaderWorkerSet spec. */
    JsonNode spec() {
        return Workload.object(node.get("spec"), at + ".spec");
    }

    /** The annotations of the role's metadata. */
    Map<String, String> annotations() {
        return Workload.strings(metadata.get("annotations"), at + ".metadata.annotations");
    }

    /** The labels of the role's metadata. */
    Map<String, String> labels() {
        return Workload.strings(metadata.get("labels"), at + ".metadata.labels");
    }
}
