package io.topobridge.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.topobridge.core.finding.UserText;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code -o/--output} as kubectl spells it: the formats a command prints, and JSON printed one way. */
final class OutputFormat {

    static final String TEXT = "text";
    static final String YAML = "yaml";
    static final String JSON = "json";

    private static final ObjectMapper MAPPER =
            new ObjectMapper().findAndRegisterModules().enable(SerializationFeature.INDENT_OUTPUT);

    static void check(CommandSpec spec, String format, String... allowed) {
        if (!List.of(allowed).contains(format)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--output must be " + String.join(" or ", allowed) + ", got " + UserText.quote(format));
        }
    }

    static String json(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot print JSON", e);
        }
    }
}
