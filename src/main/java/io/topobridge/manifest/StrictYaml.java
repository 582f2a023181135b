package io.topobridge.manifest;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.topobridge.core.finding.UserText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Multi-document YAML read as Kubernetes reads it, strictly: a key given twice in one mapping refuses the document
 * (naming both lines; a missing {@code ---} otherwise makes one object silently replace another), anchors and aliases
 * are resolved ({@code <<} merge keys included), and aliases that would expand past {@link #MAX_ALIAS_NODES} nodes (an
 * alias bomb) refuse the document before they are expanded. Scalars are typed as Jackson reads them elsewhere.
 */
final class StrictYaml {

    /** The most nodes the aliases of one document may add: far above any manifest's, far below a heap's worth. */
    static final int MAX_ALIAS_NODES = 100_000;

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String MERGE_KEY = "<<";

    /**
     * One document: its tree, or why it is refused ({@code tree} null). {@code index} counts from 1, {@code line} is
     * where it starts.
     */
    record Document(int index, int line, JsonNode tree, String refusal) {}

    /** A syntax error: the rest of the file cannot be read. */
    static final class SyntaxException extends Exception {
        final int index;

        SyntaxException(int index, String message) {
            super(message);
            this.index = index;
        }
    }

    /** A document refused for its content; the parser is left at its end. */
    private static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** A text's documents in order, each built when asked for: only the document being read has its tree held. */
    static final class Documents implements AutoCloseable {
        private final YAMLParser parser;
        private int index;

        Documents(String text) throws SyntaxException {
            try {
                parser = (YAMLParser) YAML.getFactory().createParser(text);
            } catch (IOException | RuntimeException e) {
                throw new SyntaxException(1, UserText.firstLine(e.getMessage()));
            }
        }

        /** The next document, or null after the last one. */
        Document next() throws SyntaxException {
            try {
                if (parser.nextToken() == null) {
                    return null;
                }
                index++;
                int line = parser.currentTokenLocation().getLineNr();
                Builder builder = new Builder(parser);
                try {
                    return new Document(index, line, builder.sized().node(), null);
                } catch (Refused e) {
                    builder.skipRest();
                    return new Document(index, line, null, e.getMessage());
                }
            } catch (IOException | RuntimeException e) {
                throw new SyntaxException(Math.max(index, 1), UserText.firstLine(e.getMessage()));
            }
        }

        @Override
        public void close() {
            try {
                parser.close();
            } catch (IOException e) {
                // a parser over a string holds nothing to release
            }
        }
    }

    /** Builds one document's tree from the parser's tokens, remembering anchors and counting what aliases add. */
    private static final class Builder {
        private final YAMLParser parser;
        private final Map<String, Anchored> anchors = new HashMap<>();
        private long aliasNodes;

        private record Anchored(JsonNode node, long size) {}

        Builder(YAMLParser parser) {
            this.parser = parser;
        }

        private Anchored sized() throws IOException, Refused {
            JsonToken token = parser.currentToken();
            if (parser.isCurrentAlias()) {
                return alias(parser.getText());
            }
            String anchor = parser.getObjectId();
            Anchored made;
            if (token == JsonToken.START_OBJECT) {
                made = object();
            } else if (token == JsonToken.START_ARRAY) {
                made = array();
            } else {
                made = new Anchored(scalar(token), 1);
            }
            if (anchor != null) {
                anchors.put(anchor, made);
            }
            return made;
        }

        private Anchored alias(String name) throws Refused {
            Anchored anchored = anchors.get(name);
            if (anchored == null) {
                throw new Refused(
                        "alias *" + UserText.excerpt(name) + " at line " + line() + " names no anchor before" + " it");
            }
            aliasNodes += anchored.size();
            if (aliasNodes > MAX_ALIAS_NODES) {
                throw new Refused("aliases expand to more than " + MAX_ALIAS_NODES + " nodes (at alias *"
                        + UserText.excerpt(name) + ", line " + line() + "): an alias bomb is not read");
            }
            return new Anchored(anchored.node().deepCopy(), anchored.size());
        }

        private Anchored object() throws IOException, Refused {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            Map<String, Integer> lines = new HashMap<>();
            List<JsonNode> merged = new ArrayList<>();
            long size = 1;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                int line = line();
                parser.nextToken();
                Anchored value = sized();
                size += value.size();
                if (MERGE_KEY.equals(key) && !lines.containsKey(MERGE_KEY)) {
                    lines.put(MERGE_KEY, line);
                    merged.add(value.node());
                    continue;
                }
                Integer first = lines.putIfAbsent(key, line);
                if (first != null) {
                    throw new Refused("key " + UserText.quote(key) + " is given twice in one mapping, at lines " + first
                            + " and " + line + " (a missing '---' between two objects?)");
                }
                node.set(key, value.node());
            }
            merge(node, merged);
            return new Anchored(node, size);
        }

        /** {@code <<: *a} or {@code <<: [*a, *b]}: keys the mapping lacks, the earlier source first. */
        private static void merge(ObjectNode node, List<JsonNode> merged) {
            for (JsonNode source : merged) {
                Iterable<JsonNode> sources = source.isArray() ? source : List.of(source);
                for (JsonNode one : sources) {
                    if (one.isObject()) {
                        one.fields().forEachRemaining(e -> node.putIfAbsent(e.getKey(), e.getValue()));
                    }
                }
            }
        }

        private Anchored array() throws IOException, Refused {
            ArrayNode node = JsonNodeFactory.instance.arrayNode();
            long size = 1;
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                Anchored value = sized();
                size += value.size();
                node.add(value.node());
            }
            return new Anchored(node, size);
        }

        private JsonNode scalar(JsonToken token) throws IOException {
            return switch (token) {
                case VALUE_NULL -> JsonNodeFactory.instance.nullNode();
                case VALUE_TRUE -> JsonNodeFactory.instance.booleanNode(true);
                case VALUE_FALSE -> JsonNodeFactory.instance.booleanNode(false);
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> YAML.readTree(parser);
                default -> JsonNodeFactory.instance.textNode(parser.getText());
            };
        }

        /** After a refusal inside the document: the parser is moved to the end of its root value. */
        void skipRest() throws IOException {
            while (!parser.getParsingContext().inRoot() && parser.nextToken() != null) {}
        }

        private int line() {
            return parser.currentTokenLocation().getLineNr();
        }
    }
}
