package io.topobridge.core.workload.annotation;

import io.topobridge.core.finding.ObjectRef;
import java.util.Map;
import java.util.Objects;

/**
 * One place annotations are read from: a workload's own metadata or one of its pod templates
 * ({@code where} says which, e.g. {@code "pod template of role prefill"}).
 */
public record AnnotationSource(ObjectRef object, String where, Map<String, String> annotations) {
    public AnnotationSource {
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(where, "where");
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }
}
