package io.topobridge.api.auth;

import java.util.List;
import java.util.Map;

/**
 * The API server's two answers the HTTP port needs: who a bearer token belongs to (TokenReview) and whether that user
 * may use a verb on a non-resource URL (SubjectAccessReview). Blocking calls; never on an event loop.
 */
public interface AccessReviews {

    /** A user as the API server authenticated it. */
    record User(String name, String uid, List<String> groups, Map<String, List<String>> extra) {
        public User {
            groups = groups == null ? List.of() : List.copyOf(groups);
            extra = extra == null ? Map.of() : Map.copyOf(extra);
        }
    }

    /** The outcome of a TokenReview: the user, or why the token was not accepted. */
    record Authentication(User user, String error) {
        public boolean authenticated() {
            return user != null;
        }
    }

    /** The outcome of a SubjectAccessReview, with the authorizer's reason. */
    record Authorization(boolean allowed, String reason) {}

    /** The API server did not answer a review (unreachable, or refused the bridge itself). */
    final class UnavailableException extends RuntimeException {
        public UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    Authentication authenticate(String token);

    Authorization authorize(User user, String path, String verb);
}
