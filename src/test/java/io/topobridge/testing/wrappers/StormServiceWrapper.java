package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An AIBrix StormService (orchestration.aibrix.ai/v1alpha1) of {@code replicas} RoleSets, each with the roles added
 * by {@link #role}; every role's pods ask for what the wrapper's requests say.
 */
public final class StormServiceWrapper extends WorkloadWrapper<StormServiceWrapper, GenericKubernetesResource> {

    public static final String API_VERSION = "orchestration.aibrix.ai/v1alpha1";

    private int replicas = 1;
    private final List<Role> roles = new ArrayList<>();

    private record Role(String name, int replicas, Integer podGroupSize) {}

    private StormServiceWrapper(String name, String namespace) {
        super(name, namespace);
    }

    public static StormServiceWrapper make(String name, String namespace) {
        return new StormServiceWrapper(name, namespace);
    }

    public StormServiceWrapper replicas(int value) {
        replicas = value;
        return this;
    }

    /** A role of {@code replicas} pods. */
    public StormServiceWrapper role(String roleName, int roleReplicas) {
        roles.add(new Role(roleName, roleReplicas, null));
        return this;
    }

    /** A role of {@code replicas} pod groups of {@code podGroupSize} pods each. */
    public StormServiceWrapper role(String roleName, int roleReplicas, int podGroupSize) {
        roles.add(new Role(roleName, roleReplicas, podGroupSize));
        return this;
    }

    /** The RoleSet spec each replica gets. */
    public Map<String, Object> roleSetSpec() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Role role : roles) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("name", role.name());
            r.put("replicas", role.replicas());
            if (role.podGroupSize() != null) {
                r.put("podGroupSize", role.podGroupSize());
            }
            r.put("stateful", true);
            r.put("template", pod.templateMap());
            out.add(r);
        }
        return Map.of("roles", out);
    }

    @Override
    public GenericKubernetesResource obj() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", replicas);
        spec.put("stateful", true);
        spec.put("selector", Map.of("matchLabels", Map.of("app", name)));
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("metadata", Map.of("labels", Map.of("app", name)));
        template.put("spec", roleSetSpec());
        spec.put("template", template);
        var storm = new GenericKubernetesResource();
        storm.setApiVersion(API_VERSION);
        storm.setKind("StormService");
        storm.setMetadata(metadata());
        storm.setAdditionalProperty("spec", spec);
        return storm;
    }
}
