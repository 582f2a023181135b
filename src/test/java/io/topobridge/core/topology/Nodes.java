package io.topobridge.core.topology;

import java.util.LinkedHashMap;
import java.util.Map;

/** Small builder for test nodes: {@code node("n1").label(RACK, "r1").build()}. */
final class Nodes {

    private final String name;
    private final Map<String, String> labels = new LinkedHashMap<>();

    private Nodes(String name) {
        this.name = name;
    }

    static Nodes node(String name) {
        return new Nodes(name);
    }

    Nodes label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    NodeInfo build() {
        return new NodeInfo(name, labels);
    }
}
