package io.topobridge.webhook;

/** One admission webhook served by {@link WebhookServer}: a parsed review in, an answer out. */
public interface AdmissionWebhook {

    /** Short name for metrics and logs ({@code pods}, {@code workloads}). */
    String name();

    /** The HTTP path the webhook configuration points at. */
    String path();

    /**
     * The answer to one review. Throws {@link AdmissionRequest.MalformedException} when the review lacks what
     * the answer depends on; any other exception is the bridge's own failure, which never blocks the request.
     */
    AdmissionAnswer review(AdmissionRequest request);
}
