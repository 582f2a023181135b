package io.topobridge.core.diagnosis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.core.OptionalApi;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.node.Accelerators;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the doctor looks at, gathered by an edge (the running controller from its caches, the {@code doctor}
 * command from the API server).
 *
 * @param crdSchemas each Volcano CRD the bridge writes, by name, to the {@code openAPIV3Schema} of the version the
 *     bridge uses; a CRD that is absent has no entry
 * @param schedulerConfigMap the scheduler ConfigMap; {@code schedulerData} null when it does not exist
 * @param schedulerError why it could not be read (null when it could)
 * @param controllerConfigKey the key of Volcano's controller configuration in its ConfigMap
 * @param controllerConfigs the Volcano controller ConfigMaps found (network topology discovery: Volcano's HyperNode
 *     controller reads {@code <release>-controller-configmap} in its namespace), each with its data; none when absent
 * @param readsLabel whether a node label is one the bridge's tiers read
 * @param queueStates Volcano's queues by name to their state; null when queues cannot be read
 * @param queuesNamedBy each queue the workloads name, with the objects naming it
 * @param webhooks the webhook configurations as the bridge expects and finds them
 * @param gangDomains running hard-tier gangs ({@code namespace/podGroup}) whose domain has nodes that take no new pods
 *     or cannot give them back a pod, with the judgement of the domain; empty where gangs are not read
 * @param missingApis the optional Kubernetes APIs the cluster does not serve
 */
public record DoctorInputs(
        Map<String, JsonNode> crdSchemas,
        ObjectRef schedulerConfigMap,
        String schedulerConfigKey,
        Map<String, String> schedulerData,
        String schedulerError,
        String controllerConfigKey,
        List<ConfigMapData> controllerConfigs,
        Predicate<String> readsLabel,
        Map<String, String> queueStates,
        Map<String, List<String>> queuesNamedBy,
        Collection<HyperNodeView> hyperNodes,
        Collection<NodeView> nodes,
        Webhooks webhooks,
        Accelerators accelerators,
        Map<String, GangDomain> gangDomains,
        Set<OptionalApi> missingApis) {

    public DoctorInputs {
        accelerators = accelerators == null ? Accelerators.DEFAULT : accelerators;
        controllerConfigs = controllerConfigs == null ? List.of() : List.copyOf(controllerConfigs);
        gangDomains = gangDomains == null
                ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(gangDomains));
        missingApis = missingApis == null || missingApis.isEmpty()
                ? Set.of()
                : java.util.Collections.unmodifiableSet(EnumSet.copyOf(missingApis));
    }

    private static final YAMLMapper YAML = new YAMLMapper();

    /** The scheduler configuration as YAML, or null when it is missing, unreadable or not a YAML mapping. */
    JsonNode schedulerRoot() {
        String conf = schedulerError != null || schedulerData == null ? null : schedulerData.get(schedulerConfigKey);
        JsonNode root = conf == null ? null : yaml(conf);
        return root != null && root.isObject() ? root : null;
    }

    /** The YAML of a Volcano ConfigMap key, as the doctor's checks read it: a text that is not YAML reads as null. */
    static JsonNode yaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** A ConfigMap that was read: where it is, and its data (never null). */
    public record ConfigMapData(ObjectRef ref, Map<String, String> data) {
        public ConfigMapData {
            data = data == null ? Map.of() : data;
        }
    }

    /**
     * The bridge's webhook configurations: whether it should have them ({@code expected}), their name, the CA bundle
     * they must carry (PEM; null when unknown) and, per configuration kind that exists, the CA bundle of each of its
     * webhooks (a configuration kind that is absent has no entry); whether the bridge writes them itself
     * ({@code ours}: {@code manage-configurations}), and why they could not be read (null when they were).
     */
    public record Webhooks(
            boolean expected,
            String name,
            String caBundle,
            Map<String, List<String>> found,
            boolean ours,
            String unreadable) {}
}
