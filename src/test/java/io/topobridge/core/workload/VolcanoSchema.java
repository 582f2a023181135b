package io.topobridge.core.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.testing.SharedData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Validates objects against Volcano's real PodGroup CRD schema (its {@code openAPIV3Schema}), plus the
 * API server's own rules on names, so a test proves the API server would accept what the bridge writes.
 */
public final class VolcanoSchema {

    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static Schema podGroups;

    private VolcanoSchema() {
    }

    private static synchronized Schema podGroupSchema() {
        if (podGroups == null) {
            Path crd = SharedData.upstream("volcano/scheduling.volcano.sh_podgroups.yaml");
            try {
                JsonNode root = new YAMLMapper().readTree(crd.toFile());
                JsonNode schema = root.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
                podGroups = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4)
                        .getSchema(new ObjectMapper().writeValueAsString(schema), InputFormat.JSON);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return podGroups;
    }

    /** Problems Volcano's CRD schema (or the API server's name rules) finds in a PodGroup; empty when valid. */
    public static List<String> podGroupProblems(HasMetadata podGroup) {
        List<String> out = new ArrayList<>();
        String json = Fixtures.SERIALIZATION.asJson(podGroup);
        for (Error error : podGroupSchema().validate(json, InputFormat.JSON)) {
            out.add(error.toString());
        }
        String name = podGroup.getMetadata().getName();
        if (name == null || name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            out.add("metadata.name is not a DNS-1123 subdomain: " + name);
        }
        if (podGroup.getMetadata().getOwnerReferences() != null) {
            podGroup.getMetadata().getOwnerReferences().forEach(ref -> {
                if (ref.getUid() == null || ref.getUid().isEmpty()) {
                    out.add("ownerReference without uid: " + ref.getName());
                }
            });
        }
        return out;
    }
}
