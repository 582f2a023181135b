package io.topobridge.controller.topology;

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
import java.util.Map;

/**
 * A Node as the node cache keeps it: metadata and the allocatable resources only (spec and the rest of status are
 * dropped while reading), so a cached node costs a fraction of a full one. It is registered for kind Node on the
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

    @JsonProperty("status")
    private Allocatable status;

    /** The one part of a node's status kept: {@code status.allocatable}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Allocatable {
        @JsonProperty("allocatable")
        private Map<String, Quantity> allocatable;

        public Map<String, Quantity> getAllocatable() {
            return allocatable;
        }

        public void setAllocatable(Map<String, Quantity> allocatable) {
            this.allocatable = allocatable;
        }
    }

    @JsonProperty("status")
    public Allocatable getStatus() {
        return status;
    }

    @JsonProperty("status")
    public void setStatus(Allocatable status) {
        this.status = status;
    }

    /** The allocatable resources (empty when unknown). */
    public Map<String, Quantity> allocatable() {
        return status == null || status.allocatable == null ? Map.of() : status.allocatable;
    }

    @Override
    @JsonProperty("apiVersion")
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    @JsonProperty("apiVersion")
    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    @JsonProperty("kind")
    public String getKind() {
        return kind;
    }

    @JsonProperty("kind")
    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    @JsonProperty("metadata")
    public ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    @JsonProperty("metadata")
    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }
}
