package io.topobridge.core.workload.gang;

import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;

/**
 * What is known of a pod's place in its workload (which workload made it, its LWS group and leader or worker
 * part, its DisaggregatedSet slice and role, its AIBrix role and PodSet…), as facts keyed by name. A
 * {@link PodRole} carries the facts its pods share; a pod belongs to a role when its facts include them.
 */
public record PodIdentity(Map<String, String> facts) {

    /** {@code Kind/name} of the workload that made the pod. */
    public static final String WORKLOAD = "workload";
    /** The LWS group index. */
    public static final String GROUP_INDEX = "group-index";
    /** The group key of an LWS group under {@code groupIdentity: Hash} (its pods' group-key label). */
    public static final String GROUP_KEY = "group-key";
    /** {@code true} for the leader of an LWS group, {@code false} for its workers. */
    public static final String LEADER = "leader";
    /** The LeaderWorkerSet a DisaggregatedSet pod runs in. */
    public static final String LWS = "lws";
    /** The LWS template revision (names the PodGroups LWS's Volcano provider makes). */
    public static final String REVISION = "revision";
    /** The DisaggregatedSet slice. */
    public static final String SLICE = "slice";
    /** The role (AIBrix role, DisaggregatedSet role). */
    public static final String ROLE = "role";
    /** The AIBrix PodSet. */
    public static final String POD_SET = "pod-set";
    /** The pod's index in its gang as its workload's controller gives it (an LWS worker index, a StatefulSet ordinal). */
    public static final String INDEX = "index";

    public static final PodIdentity NONE = new PodIdentity(Map.of());

    public PodIdentity {
        facts = facts == null ? Map.of() : Map.copyOf(facts);
    }

    /** Facts from key/value pairs; a null value leaves its key out (the fact is unknown). */
    public static PodIdentity of(String... keyValues) {
        return NONE.with(keyValues);
    }

    /** These facts plus more (a null value leaves its key out). */
    @SuppressWarnings("unchecked")
    public PodIdentity with(String... keyValues) {
        // made for every plan of every gang: built as the immutable map it ends as, without a HashMap to copy
        var out = new ArrayList<Map.Entry<String, String>>(facts.entrySet());
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            String key = keyValues[i];
            if (keyValues[i + 1] != null) {
                out.removeIf(e -> e.getKey().equals(key));
                out.add(Map.entry(key, keyValues[i + 1]));
            }
        }
        return new PodIdentity(Map.ofEntries(out.toArray(Map.Entry[]::new)));
    }

    /** The value of a fact, or null when unknown. */
    public String get(String key) {
        return facts.get(key);
    }

    /** Whether {@code pod} has every fact this identity names (the pod is one of these pods). */
    public boolean covers(PodIdentity pod) {
        for (var fact : facts.entrySet()) {
            if (!fact.getValue().equals(pod.facts().get(fact.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return new TreeMap<>(facts).toString();
    }
}
