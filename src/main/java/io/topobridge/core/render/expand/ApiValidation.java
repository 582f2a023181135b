package io.topobridge.core.render.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TopologySettings;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The API server's checks of the metadata of an object a controller creates (names, label keys and values, annotation
 * keys and size, a pod's hostname and subdomain): a controller's create of an object that fails them fails, so render
 * makes none either.
 */
final class ApiValidation {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

    private ApiValidation() {}

    /** Why the API server refuses {@code object}, if it does. */
    static Optional<String> refusal(HasMetadata object) {
        String name = object.getMetadata().getName();
        if (name == null || name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            return Optional.of("metadata.name " + UserText.quote(String.valueOf(name)) + " is not a DNS subdomain");
        }
        for (var label : Build.labels(object).entrySet()) {
            if (!qualifiedName(label.getKey())) {
                return Optional.of("label key " + UserText.quote(label.getKey()) + " is not a qualified name");
            }
            String value = label.getValue();
            if (value == null
                    || value.length() > 63
                    || !LABEL_VALUE.matcher(value).matches()) {
                return Optional.of("label " + UserText.identifier(label.getKey()) + " has the invalid value "
                        + UserText.quote(String.valueOf(value)) + " (at most 63 characters)");
            }
        }
        long size = 0;
        for (Map.Entry<String, String> annotation : Build.annotations(object).entrySet()) {
            if (!qualifiedName(annotation.getKey().toLowerCase(java.util.Locale.ROOT))) {
                return Optional.of(
                        "annotation key " + UserText.quote(annotation.getKey()) + " is not a qualified name");
            }
            size += annotation.getKey().getBytes(StandardCharsets.UTF_8).length
                    + (annotation.getValue() == null
                            ? 0
                            : annotation.getValue().getBytes(StandardCharsets.UTF_8).length);
        }
        if (size > MAX_ANNOTATIONS_BYTES) {
            return Optional.of("its annotations are " + size + " bytes, more than " + MAX_ANNOTATIONS_BYTES);
        }
        if (object instanceof Pod pod && pod.getSpec() != null) {
            for (String field : new String[] {"hostname", "subdomain"}) {
                String value = "hostname".equals(field)
                        ? pod.getSpec().getHostname()
                        : pod.getSpec().getSubdomain();
                if (value != null
                        && !value.isEmpty()
                        && (value.length() > 63 || !DNS_LABEL.matcher(value).matches())) {
                    return Optional.of("spec." + field + " " + UserText.quote(value) + " is not a DNS label");
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a label or annotation key is a Kubernetes qualified name, as the API server checks it. */
    private static boolean qualifiedName(String key) {
        return key != null && TopologySettings.labelKeyProblem(key) == null;
    }
}
