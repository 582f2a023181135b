package io.topobridge.api.auth;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.finding.UserText;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@link AccessReviews} by the API server itself: {@code authentication.k8s.io/v1} TokenReview (no audiences: the
 * API server's own, which every ServiceAccount token mounted in a pod carries) and {@code authorization.k8s.io/v1}
 * SubjectAccessReview with {@code nonResourceAttributes}. The bridge needs {@code create} on both.
 */
@ApplicationScoped
public class KubernetesAccessReviews implements AccessReviews {

    private final KubernetesClient client;

    public KubernetesAccessReviews(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Authentication authenticate(String token) {
        TokenReview answer;
        try {
            answer = client.authentication()
                    .v1()
                    .tokenReviews()
                    .create(new TokenReviewBuilder()
                            .withNewSpec()
                            .withToken(token)
                            .endSpec()
                            .build());
        } catch (KubernetesClientException e) {
            throw new AccessReviews.UnavailableException("TokenReview failed: " + describe(e), e);
        }
        var status = answer.getStatus();
        if (status == null || !Boolean.TRUE.equals(status.getAuthenticated()) || status.getUser() == null) {
            String error = status == null
                            || status.getError() == null
                            || status.getError().isBlank()
                    ? "the API server did not authenticate the token"
                    : UserText.excerpt(status.getError());
            return new Authentication(null, error);
        }
        var user = status.getUser();
        return new Authentication(new User(user.getUsername(), user.getUid(), user.getGroups(), user.getExtra()), null);
    }

    @Override
    public Authorization authorize(User user, String path, String verb) {
        SubjectAccessReview answer;
        try {
            answer = client.authorization()
                    .v1()
                    .subjectAccessReview()
                    .create(new SubjectAccessReviewBuilder()
                            .withNewSpec()
                            .withUser(user.name())
                            .withUid(user.uid())
                            .withGroups(user.groups())
                            .withExtra(user.extra())
                            .withNewNonResourceAttributes()
                            .withPath(path)
                            .withVerb(verb)
                            .endNonResourceAttributes()
                            .endSpec()
                            .build());
        } catch (KubernetesClientException e) {
            throw new AccessReviews.UnavailableException("SubjectAccessReview failed: " + describe(e), e);
        }
        var status = answer.getStatus();
        boolean allowed =
                status != null && Boolean.TRUE.equals(status.getAllowed()) && !Boolean.TRUE.equals(status.getDenied());
        String reason = status == null ? "" : status.getReason() == null ? "" : status.getReason();
        return new Authorization(allowed, UserText.excerpt(reason));
    }

    private static String describe(KubernetesClientException e) {
        if (e.getCode() <= 0) {
            return UserText.excerpt(String.valueOf(e.getMessage()));
        }
        return "HTTP " + e.getCode() + " "
                + UserText.excerpt(
                        e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage());
    }
}
