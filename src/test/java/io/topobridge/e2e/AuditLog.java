package io.topobridge.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The real API server's audit log (JSON lines, stage {@code ResponseComplete}; writes of every user, and reads too
 * of the release namespace's ServiceAccounts): the oracle for how many writes the bridge made and which requests
 * RBAC refused. A {@link #mark()} remembers where the log ends so a test reads only what happened after it.
 */
public final class AuditLog {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> WRITES = Set.of("create", "update", "patch", "delete", "deletecollection");

    /** One audited write (with the request and response bodies where the policy records them). */
    public record Write(
            String user,
            String verb,
            String resource,
            String subresource,
            String namespace,
            String name,
            int code,
            String userAgent,
            JsonNode requestObject,
            JsonNode responseObject) {

        /** {@code verb resource[/subresource] namespace/name → code}, for assertion messages. */
        @Override
        public String toString() {
            return verb + " " + resource + (subresource.isEmpty() ? "" : "/" + subresource) + " "
                    + (namespace.isEmpty() ? "" : namespace + "/") + name + " → " + code;
        }

        /** Whether the API server carried out the write (2xx). */
        public boolean succeeded() {
            return code >= 200 && code < 300;
        }
    }

    /**
     * One audited request of any verb, as RBAC saw it (a watch is recorded when it ends, a refused one at once).
     * {@code group} is empty for the core API; {@code resource} is empty for a non-resource URL such as
     * {@code /version}.
     */
    public record Request(
            String user,
            String verb,
            String group,
            String resource,
            String subresource,
            String namespace,
            String name,
            int code,
            String uri) {

        /** {@code verb group/resource[/subresource] namespace/name → code}, for assertion messages. */
        @Override
        public String toString() {
            String what = resource.isEmpty()
                    ? uri
                    : (group.isEmpty() ? "" : group + "/")
                            + resource
                            + (subresource.isEmpty() ? "" : "/" + subresource)
                            + (namespace.isEmpty() && name.isEmpty()
                                    ? ""
                                    : " " + (namespace.isEmpty() ? "" : namespace + "/") + name);
            return verb + " " + what + " → " + code;
        }

        /** Whether RBAC refused it. */
        public boolean forbidden() {
            return code == 403;
        }
    }

    private final Path file;

    AuditLog(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** The current end of the log. */
    public long mark() {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every completed write since {@code mark} by {@code user}. */
    public List<Write> writesSince(long mark, String user) {
        return writesSince(mark, w -> w.user().equals(user));
    }

    /** Every completed write since {@code mark} by {@code user} of {@code resource} (plural, e.g. {@code podgroups}). */
    public List<Write> writesSince(long mark, String user, String resource) {
        return writesSince(mark, w -> w.user().equals(user) && w.resource().equals(resource));
    }

    /** Every completed write since {@code mark} that {@code filter} accepts. */
    public List<Write> writesSince(long mark, Predicate<Write> filter) {
        List<Write> out = new ArrayList<>();
        for (JsonNode event : eventsSince(mark)) {
            if (!"ResponseComplete".equals(event.path("stage").asText())
                    || !WRITES.contains(event.path("verb").asText())) {
                continue;
            }
            JsonNode ref = event.path("objectRef");
            Write write = new Write(
                    event.path("user").path("username").asText(),
                    event.path("verb").asText(),
                    ref.path("resource").asText(),
                    ref.path("subresource").asText(),
                    ref.path("namespace").asText(),
                    ref.path("name").asText(),
                    event.path("responseStatus").path("code").asInt(),
                    event.path("userAgent").asText(),
                    event.get("requestObject"),
                    event.get("responseObject"));
            if (filter.test(write)) {
                out.add(write);
            }
        }
        return out;
    }

    /** Every completed request since {@code mark} that {@code filter} accepts, reads included where recorded. */
    public List<Request> requestsSince(long mark, Predicate<Request> filter) {
        List<Request> out = new ArrayList<>();
        for (JsonNode event : eventsSince(mark)) {
            if (!"ResponseComplete".equals(event.path("stage").asText())) {
                continue;
            }
            JsonNode ref = event.path("objectRef");
            Request request = new Request(
                    event.path("user").path("username").asText(),
                    event.path("verb").asText(),
                    ref.path("apiGroup").asText(),
                    ref.path("resource").asText(),
                    ref.path("subresource").asText(),
                    ref.path("namespace").asText(),
                    ref.path("name").asText(),
                    event.path("responseStatus").path("code").asInt(),
                    event.path("requestURI").asText());
            if (filter.test(request)) {
                out.add(request);
            }
        }
        return out;
    }

    /**
     * Requests in {@code namespace} since {@code mark} that the API server let through after a call to a webhook failed
     * ({@code failurePolicy: Ignore}; its audit annotation {@code failed-open.*} names the webhook), as
     * {@code <time it completed> verb resource → webhook}.
     */
    public List<String> failedOpenSince(long mark, String namespace) {
        List<String> out = new ArrayList<>();
        for (JsonNode event : eventsSince(mark)) {
            JsonNode ref = event.path("objectRef");
            if (!"ResponseComplete".equals(event.path("stage").asText())
                    || !namespace.equals(ref.path("namespace").asText())) {
                continue;
            }
            event.path("annotations").fields().forEachRemaining(a -> {
                if (a.getKey().startsWith("failed-open")) {
                    out.add(event.path("stageTimestamp").asText() + " "
                            + event.path("verb").asText() + " "
                            + ref.path("resource").asText() + " → "
                            + a.getValue().asText());
                }
            });
        }
        return out;
    }

    private List<JsonNode> eventsSince(long mark) {
        List<JsonNode> out = new ArrayList<>();
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long end = in.length();
            if (mark >= end) {
                return out;
            }
            byte[] bytes = new byte[(int) (end - mark)];
            in.seek(mark);
            in.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            int last = text.lastIndexOf('\n');
            // a line still being written is read next time
            for (String line : text.substring(0, last + 1).split("\n")) {
                if (!line.isBlank()) {
                    try {
                        out.add(JSON.readTree(line));
                    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                        // a line a killed API server left half written
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log " + file, e);
        }
        return out;
    }
}
