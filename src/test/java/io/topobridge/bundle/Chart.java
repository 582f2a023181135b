package io.topobridge.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code Chart.yaml} says about the chart that the bundle repeats: its version (the CSV's), the application's
 * version (the image tag), its description and keywords, and the oldest Kubernetes it installs on.
 */
record Chart(
        String name,
        String version,
        String appVersion,
        String description,
        List<String> keywords,
        String minKubeVersion) {

    private static final Pattern LOWER_BOUND = Pattern.compile(">=\\s*v?(\\d+\\.\\d+\\.\\d+)");

    Chart {
        keywords = List.copyOf(keywords);
    }

    static Chart read(Path file) {
        JsonNode chart;
        try {
            chart = new YAMLMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        String kubeVersion = chart.path("kubeVersion").asText();
        Matcher bound = LOWER_BOUND.matcher(kubeVersion);
        if (!bound.find()) {
            throw new IllegalStateException(file + ": kubeVersion " + kubeVersion
                    + " has no lower bound >=X.Y.Z, which the CSV's minKubeVersion repeats");
        }
        List<String> keywords = new ArrayList<>();
        chart.path("keywords").forEach(k -> keywords.add(k.asText()));
        return new Chart(
                chart.path("name").asText(),
                chart.path("version").asText(),
                chart.path("appVersion").asText(),
                chart.path("description").asText(),
                keywords,
                bound.group(1));
    }
}
