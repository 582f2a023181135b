package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every wrapper has: name, namespace, uid, labels and annotations of the object, and the pod it makes.
 *
 * @param <W> the wrapper itself, so that chained calls keep its own methods
 * @param <T> the object it makes
 */
public abstract class WorkloadWrapper<W extends WorkloadWrapper<W, T>, T extends HasMetadata> {

    /** The annotation that bounds a gang's placement to one domain of a tier. */
    public static final String HIGHEST_TIER = "topobridge.io/highest-tier";

    protected final String name;
    protected final String namespace;
    protected final Map<String, String> labels = new LinkedHashMap<>();
    protected final Map<String, String> annotations = new LinkedHashMap<>();
    protected final PodSpecs pod = new PodSpecs();
    protected String uid;

    protected WorkloadWrapper(String name, String namespace) {
        this.name = name;
        this.namespace = namespace;
    }

    @SuppressWarnings("unchecked")
    protected final W self() {
        return (W) this;
    }

    /** The object, new on each call. */
    public abstract T obj();

    /** The object as YAML, as a user would write it. */
    public final String yaml() {
        return PodSpecs.SERIALIZATION.asYaml(obj());
    }

    public W uid(String value) {
        uid = value;
        return self();
    }

    public W label(String key, String value) {
        labels.put(key, value);
        return self();
    }

    public W annotation(String key, String value) {
        annotations.put(key, value);
        return self();
    }

    public W annotations(Map<String, String> all) {
        annotations.putAll(all);
        return self();
    }

    /** The gang within one domain of {@code tier} ({@code topobridge.io/highest-tier}). */
    public W highestTier(String tier) {
        return annotation(HIGHEST_TIER, tier);
    }

    /** Each pod asks for {@code amount} of {@code resource} (extended resources get the equal limit too). */
    public W request(String resource, String amount) {
        pod.request(resource, amount);
        return self();
    }

    public W requests(Map<String, String> all) {
        all.forEach(pod::request);
        return self();
    }

    /** Each pod asks for {@code amount} of {@code resource} as a limit only (Kubernetes defaults the request). */
    public W limit(String resource, String amount) {
        pod.limits.put(resource, amount);
        return self();
    }

    public W cpu(String amount) {
        return request("cpu", amount);
    }

    public W gpus(int count) {
        return request("nvidia.com/gpu", Integer.toString(count));
    }

    /** Pods scheduled by another scheduler than Volcano. */
    public W schedulerName(String value) {
        pod.schedulerName = value;
        return self();
    }

    /** A label on the pods the workload makes. */
    public W podLabel(String key, String value) {
        pod.labels.put(key, value);
        return self();
    }

    /** The pods run only on nodes with this label ({@code nodeSelector}). */
    public W nodeSelector(String key, String value) {
        pod.nodeSelector.put(key, value);
        return self();
    }

    protected ObjectMeta metadata() {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(namespace)
                .withUid(uid)
                .withLabels(labels.isEmpty() ? null : new LinkedHashMap<>(labels))
                .withAnnotations(annotations.isEmpty() ? null : new LinkedHashMap<>(annotations))
                .build();
    }
}
