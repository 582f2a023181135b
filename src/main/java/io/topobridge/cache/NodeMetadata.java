package io.topobridge.cache;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.node.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Node as the node cache keeps it: metadata, the allocatable resources and whether it takes new pods (cordoned, the
 * status of its Ready condition, its NoSchedule/NoExecute taints) only; the rest of spec and status is dropped while
 * reading, so a cached node costs a fraction of a full one. It is registered for kind Node on the
 * cache's own API client only, so nothing else that reads Nodes is handed this class.
 */
@Group("")
@Version("v1")
@Kind("Node")
@Plural("nodes")
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
// plain bean deserialisation: the kind-dispatching deserializer inherited from KubernetesResource would
// resolve kind Node back to this class and recurse
@JsonDeserialize(using = JsonDeserializer.None.class)
public class NodeMetadata implements HasMetadata {

    @JsonProperty("apiVersion")
    private String apiVersion = "v1";

    @JsonProperty("kind")
    private String kind = "Node";

    @JsonProperty("metadata")
    private ObjectMeta metadata;

    @JsonProperty("spec")
    private Spec spec;

    @JsonProperty("status")
    private Allocatable status;

    /** The parts of a node's status kept: {@code status.allocatable} and the status of its Ready condition. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Allocatable {
        public Map<String, Quantity> allocatable;

        /** {@code True}, {@code False} or {@code Unknown}; null when the node reports no Ready condition. */
        @JsonIgnore
        private String ready;

        /** Read: of all conditions only the Ready one's status is kept. */
        @JsonProperty("conditions")
        public void setConditions(List<Condition> conditions) {
            ready = null;
            if (conditions != null) {
                for (Condition c : conditions) {
                    if (c != null && "Ready".equals(c.type)) {
                        ready = c.status == null ? null : c.status.intern();
                    }
                }
            }
        }

        /** Written: the Ready condition alone. */
        @JsonProperty("conditions")
        public List<Condition> getConditions() {
            if (ready == null) {
                return null;
            }
            Condition c = new Condition();
            c.type = "Ready";
            c.status = ready;
            return List.of(c);
        }
    }

    /** One condition of a node's status, as far as it is read. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Condition {
        public String type;
        public String status;
    }

    /** The part of a node's spec kept: whether it is cordoned and its taints. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Spec {
        public Boolean unschedulable;
        public List<NodeTaint> taints;
    }

    /** A taint as read ({@code timeAdded} dropped). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class NodeTaint {
        public String key;
        public String value;
        public String effect;

        @Override
        public boolean equals(Object o) {
            return o instanceof NodeTaint t
                    && Objects.equals(key, t.key)
                    && Objects.equals(value, t.value)
                    && Objects.equals(effect, t.effect);
        }

        @Override
        public int hashCode() {
            return Objects.hash(key, value, effect);
        }
    }

    public Spec getSpec() {
        return spec;
    }

    public void setSpec(Spec spec) {
        this.spec = spec;
    }

    /** Whether the node takes new pods: cordoned, Ready and the taints that keep pods off. */
    public NodeState state() {
        boolean cordoned = spec != null && Boolean.TRUE.equals(spec.unschedulable);
        List<Taint> taints = List.of();
        if (spec != null && spec.taints != null && !spec.taints.isEmpty()) {
            List<Taint> out = new ArrayList<>(spec.taints.size());
            for (NodeTaint t : spec.taints) {
                if (t != null && t.key != null && Taint.repels(t.effect)) {
                    out.add(new Taint(t.key, t.value, t.effect));
                }
            }
            taints = out;
        }
        return new NodeState(cordoned, status == null ? null : status.ready, taints);
    }

    public Allocatable getStatus() {
        return status;
    }

    public void setStatus(Allocatable status) {
        this.status = status;
    }

    /** The allocatable resources (empty when unknown). */
    public Map<String, Quantity> allocatable() {
        return status == null || status.allocatable == null ? Map.of() : status.allocatable;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    public ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }
}
