package io.topobridge.testing;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.topobridge.devcluster.ApplyingCrudDispatcher;
import io.topobridge.devcluster.MockCluster;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * The mock API server of the tests: {@link ApplyingCrudDispatcher} with a request log, so tests can count writes ("a
 * resync writes nothing"), and built-in API groups it can stop serving, as an older Kubernetes minor lacks them.
 */
public class RecordingDispatcher extends ApplyingCrudDispatcher {

    /** One request as the server saw it. */
    public record Request(String method, String path, String contentType) {
        public boolean isWrite() {
            return switch (method) {
                case "POST", "PUT", "PATCH", "DELETE" -> true;
                default -> false;
            };
        }

        public boolean isApply() {
            return "PATCH".equals(method) && contentType != null && contentType.startsWith(APPLY_PATCH);
        }
    }

    private final ConcurrentLinkedQueue<Request> log = new ConcurrentLinkedQueue<>();
    private final Set<String> unservedGroups = ConcurrentHashMap.newKeySet();

    /** An empty mock API server with a request log, on a free loopback port. */
    public static MockCluster start() {
        RecordingDispatcher dispatcher = new RecordingDispatcher();
        MockCluster cluster = MockCluster.start(dispatcher);
        STARTED.put(cluster, dispatcher);
        return cluster;
    }

    /** The request log of a cluster {@link #start}ed here. */
    public static RecordingDispatcher of(MockCluster cluster) {
        return STARTED.get(cluster);
    }

    private static final Map<MockCluster, RecordingDispatcher> STARTED =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        log.add(new Request(request.getMethod(), request.getPath(), request.getHeader("Content-Type")));
        return groupServed(request.getPath()) ? super.dispatch(request) : notFound();
    }

    /** Every request since the last {@link #clearLog()}, oldest first. */
    public List<Request> requests() {
        return List.copyOf(log);
    }

    /** Writes (POST, PUT, PATCH, DELETE) whose path contains {@code pathFragment}. */
    public List<Request> writes(String pathFragment) {
        return requests(r -> r.isWrite() && r.path().contains(pathFragment));
    }

    public List<Request> requests(Predicate<Request> filter) {
        return log.stream().filter(filter).toList();
    }

    public void clearLog() {
        log.clear();
    }

    /**
     * From now on answers 404 for {@code group} (its discovery and its objects), as an API server of a Kubernetes
     * minor without that group does.
     */
    public void stopServing(String group) {
        unservedGroups.add(group);
    }

    private boolean groupServed(String path) {
        for (String group : unservedGroups) {
            String prefix = "/apis/" + group;
            if (path.equals(prefix) || path.startsWith(prefix + "/") || path.startsWith(prefix + "?")) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void reset() {
        super.reset();
        log.clear();
    }
}
