package io.topobridge.core.diagnosis;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The doctor's {@code webhooks} check: the bridge's webhook configurations exist and carry the current CA. */
final class WebhooksCheck {

    static DoctorCheck.Result check(DoctorInputs in) {
        DoctorInputs.Webhooks w = in.webhooks();
        if (!w.expected()) {
            return DoctorCheck.ok("admission is disabled; no webhook configuration is expected");
        }
        Function<String, ObjectRef> ref =
                kind -> new ObjectRef("admissionregistration.k8s.io/v1", kind, null, w.name(), null);
        if (w.unreadable() != null) {
            // the installer's (OLM names them itself and grants no access): not the bridge's to check
            String message = "webhook configuration " + w.name() + " cannot be read (" + w.unreadable() + ")";
            return w.ours()
                    ? DoctorCheck.problem(
                            DoctorCheck.Status.WARNING,
                            DoctorReason.WEBHOOK_CONFIGURATION_STALE,
                            ref.apply("MutatingWebhookConfiguration"),
                            message + ", though the bridge writes them (manage-configurations=true)")
                    : DoctorCheck.ok(message + "; their installer keeps them, so they are not checked");
        }
        List<String> problems = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (String kind : List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")) {
            List<String> bundles = w.found().get(kind);
            String problem = null;
            if (bundles == null) {
                problem = kind + " " + w.name() + " does not exist";
            } else if (w.caBundle() != null
                    && (bundles.isEmpty() || bundles.stream().anyMatch(b -> !samePem(b, w.caBundle())))) {
                problem = kind + " " + w.name() + " does not carry the current CA in its caBundle";
            }
            if (problem != null) {
                problems.add(problem);
                findings.add(
                        Finding.warning(
                                DoctorReason.WEBHOOK_CONFIGURATION_STALE,
                                ref.apply(kind),
                                problem
                                        + "; the API server cannot call the bridge, and pods are admitted untied from their gangs"));
            }
        }
        if (problems.isEmpty()) {
            return DoctorCheck.ok("webhook configurations " + w.name() + " exist"
                    + (w.caBundle() == null ? " (the current CA is unknown)" : " and carry the current CA"));
        }
        return DoctorCheck.failure(problems, findings);
    }

    static boolean samePem(String a, String b) {
        return a != null && b != null && a.replaceAll("\\s", "").equals(b.replaceAll("\\s", ""));
    }
}
