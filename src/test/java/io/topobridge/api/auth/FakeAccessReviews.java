package io.topobridge.api.auth;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** An API server's TokenReview and SubjectAccessReview in miniature: a token table, grants, and call counts. */
final class FakeAccessReviews implements AccessReviews {

    final Map<String, User> tokens = new ConcurrentHashMap<>();
    /** {@code user verb path} of every grant. */
    final Set<String> grants = ConcurrentHashMap.newKeySet();

    final AtomicInteger tokenReviews = new AtomicInteger();
    final AtomicInteger accessReviews = new AtomicInteger();
    /** The non-resource URLs asked about, in order. */
    final List<String> askedPaths = new java.util.concurrent.CopyOnWriteArrayList<>();

    volatile boolean down;

    FakeAccessReviews user(String token, String name) {
        tokens.put(token, new User(name, "uid-" + name, List.of("system:authenticated"), Map.of()));
        return this;
    }

    FakeAccessReviews grant(String name, String verb, String path) {
        grants.add(name + " " + verb + " " + path);
        return this;
    }

    @Override
    public Authentication authenticate(String token) {
        tokenReviews.incrementAndGet();
        if (down) {
            throw new UnavailableException("TokenReview failed: HTTP 403 tokenreviews is forbidden", null);
        }
        User user = tokens.get(token);
        return user == null ? new Authentication(null, "invalid bearer token") : new Authentication(user, null);
    }

    @Override
    public Authorization authorize(User user, String path, String verb) {
        accessReviews.incrementAndGet();
        askedPaths.add(verb + " " + path);
        if (down) {
            throw new UnavailableException("SubjectAccessReview failed: connection refused", null);
        }
        boolean allowed = grants.contains(user.name() + " " + verb + " " + path);
        return new Authorization(allowed, allowed ? "RBAC: allowed by ClusterRoleBinding" : "");
    }
}
