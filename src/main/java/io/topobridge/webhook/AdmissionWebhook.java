package io.topobridge.webhook;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.WorkloadLookup;
import java.util.Set;
import java.util.function.Supplier;

/** One admission webhook served by {@link WebhookServer}: a parsed review in, an answer out. */
public abstract class AdmissionWebhook {

    private final String name;
    private final String path;
    protected final Context context;

    /**
     * @param name short name for metrics and logs ({@code pods}, {@code workloads})
     * @param path the HTTP path the webhook configuration points at
     * @param context what the webhook reads besides the request
     */
    protected AdmissionWebhook(String name, String path, Context context) {
        this.name = name;
        this.path = path;
        this.context = context;
    }

    /** What every webhook reads besides the request: the tiers now, the workloads, and the namespaces left alone. */
    public record Context(
            Supplier<TierCatalog> tiers,
            WorkloadLookup lookup,
            KubernetesSerialization serialization,
            Set<String> ignoredNamespaces) {
        public Context {
            ignoredNamespaces = Set.copyOf(ignoredNamespaces);
        }
    }

    public final String name() {
        return name;
    }

    public final String path() {
        return path;
    }

    /**
     * The answer to one review. Throws {@link AdmissionRequest.MalformedException} when the review lacks what
     * the answer depends on; any other exception is the bridge's own failure, which never blocks the request.
     */
    public abstract AdmissionAnswer review(AdmissionRequest request);
}
