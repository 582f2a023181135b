package io.topobridge.core.expand;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.kinds.Kinds;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * An expansion as tests read it: each created object as one line {@code Kind name <- OwnerKind/owner}, names and
 * values with every generated token shown as {@code *} (the stand-ins are deterministic, but a test asserts the
 * controllers' shape, not render's made-up characters).
 */
public record Expanded(Expansion.Result result) {

    public static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    public static Expanded of(String yaml) {
        return new Expanded(Kinds.expansion().expand(objects(yaml), Expansion.Limits.DEFAULT));
    }

    public static Expanded of(List<HasMetadata> inputs, Expansion.Limits limits) {
        return new Expanded(Kinds.expansion().expand(inputs, limits));
    }

    /** Every object of a multi-document YAML text (custom kinds as generic resources). */
    public static List<HasMetadata> objects(String yaml) {
        List<HasMetadata> out = new ArrayList<>();
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            if (!doc.isBlank()) {
                out.add((HasMetadata)
                        SERIALIZATION.unmarshal(new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8))));
            }
        }
        return out;
    }

    /** A value with each generated token as {@code *}. */
    public String shape(String value) {
        if (value == null) {
            return null;
        }
        for (Generated g : result.generated()) {
            if (g.value().equals(value)) {
                StringBuilder out = new StringBuilder();
                g.parts().forEach(p -> out.append(p.literal() ? p.text() : "*"));
                return out.toString();
            }
        }
        return value;
    }

    /** One line per created object: {@code Kind name <- OwnerKind/owner}, shaped. */
    public List<String> outline() {
        List<String> out = new ArrayList<>();
        for (HasMetadata o : result.created()) {
            StringBuilder line =
                    new StringBuilder(o.getKind() + " " + shape(o.getMetadata().getName()));
            for (OwnerReference owner : o.getMetadata().getOwnerReferences()) {
                line.append(" <- ").append(owner.getKind()).append('/').append(shape(owner.getName()));
            }
            out.add(line.toString());
        }
        return out;
    }

    /** The first created object of a kind whose shaped name is {@code name}. */
    public HasMetadata object(String kind, String name) {
        for (HasMetadata o : result.created()) {
            if (o.getKind().equals(kind) && name.equals(shape(o.getMetadata().getName()))) {
                return o;
            }
        }
        throw new AssertionError("no " + kind + " " + name + " in " + outline());
    }

    /** The labels of an object, values shaped. */
    public Map<String, String> labels(String kind, String name) {
        return shaped(object(kind, name).getMetadata().getLabels());
    }

    /** The annotations of an object, values shaped. */
    public Map<String, String> annotations(String kind, String name) {
        return shaped(object(kind, name).getMetadata().getAnnotations());
    }

    private Map<String, String> shaped(Map<String, String> values) {
        Map<String, String> out = new TreeMap<>();
        if (values != null) {
            values.forEach((k, v) -> out.put(k, shape(v)));
        }
        return out;
    }

    /** The notes as lines. */
    public List<String> notes() {
        return result.notes().stream().map(f -> f.line()).toList();
    }

    /** How many created objects of each kind. */
    public Map<String, Integer> counts() {
        Map<String, Integer> out = new HashMap<>();
        result.created().forEach(o -> out.merge(o.getKind(), 1, Integer::sum));
        return out;
    }

    /** A container the cases' YAML places with {@code %1$s}. */
    private static final String CONTAINER = "{containers: [{name: c, image: x}]}";

    /**
     * Expands {@code yaml} (its {@code %1$s} a container) and checks its outline (when given), the case's own checks,
     * and that every created object is in the input's namespace {@code ns}.
     */
    public static void check(String yaml, List<String> outline, Consumer<Expanded> checks) {
        Expanded e = of(yaml.formatted(CONTAINER));
        if (outline != null) {
            assertThat(e.outline()).containsExactlyElementsOf(outline);
        }
        checks.accept(e);
        assertThat(e.result().created())
                .as("every created object is in the input's namespace")
                .allMatch(o -> "ns".equals(o.getMetadata().getNamespace()));
    }

    /** SHA-1 as 40 hex digits, as LeaderWorkerSet keys its groups and subgroups. */
    public static String sha1(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
