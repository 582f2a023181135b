package io.topobridge.controller.topology;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Node as the topology controller caches it: metadata only (spec and status are dropped while reading), so
 * a cached node costs a fraction of a full one. It is registered for kind Node on the controller's own API
 * client only, so nothing else that reads Nodes is handed this class.
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
