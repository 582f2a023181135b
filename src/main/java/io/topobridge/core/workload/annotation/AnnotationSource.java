package io.topobridge.core.workload.annotation;

import io.topobridge.core.finding.ObjectRef;
import java.util.Map;
import java.util.Objects;

/**
 * One place annotations are read from: a workload's own metadata or one of its pod templates
 * ({@code where} says which, e.g. {@code "pod template of role prefill"}), with that place's labels and, for a pod
 * template, the scheduler it names (null where none is named or the place is no pod template): what tells a
 * workload another scheduler runs apart from one the bridge may read other schedulers' annotations of.
 */
public record AnnotationSource(
        ObjectRef object, String where, Map<String, String> annotations, Map<String, String> labels, String scheduler) {
    public AnnotationSource {
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(where, "where");
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** A source of annotations only (no labels, no scheduler). */
    public static AnnotationSource of(ObjectRef object, String where, Map<String, String> annotations) {
        return new AnnotationSource(object, where, annotations, Map.of(), null);
    }
}
