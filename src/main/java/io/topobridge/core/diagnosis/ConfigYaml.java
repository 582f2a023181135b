package io.topobridge.core.diagnosis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** The YAML of a Volcano ConfigMap key, as the doctor's checks read it: a text that is not YAML reads as nothing. */
final class ConfigYaml {

    private static final YAMLMapper YAML = new YAMLMapper();

    private ConfigYaml() {}

    /** The parsed text, or null when it is not YAML. */
    static JsonNode read(String text) {
        try {
            return YAML.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
