package io.topobridge.testing;

/** DRA claims as YAML, for tests whose workloads get devices through a ResourceClaim or a claim template. */
public final class DraClaims {

    private DraClaims() {}

    /**
     * A ResourceClaimTemplate whose one request {@code request} asks for {@code count} devices of {@code deviceClass}
     * ({@code count} null: the one device a request gets by default).
     */
    public static String template(String name, String namespace, String request, String deviceClass, Integer count) {
        return """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: %s, namespace: %s}
                spec:
                """.formatted(name, namespace)
                + devices(request, deviceClass, count).indent(2);
    }

    /** A ResourceClaim whose one request {@code request} asks for one device of {@code deviceClass}. */
    public static String claim(String name, String namespace, String request, String deviceClass) {
        return """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata: {name: %s, namespace: %s}
                """.formatted(name, namespace) + devices(request, deviceClass, null);
    }

    private static String devices(String request, String deviceClass, Integer count) {
        return """
                spec:
                  devices:
                    requests:
                    - name: %s
                      exactly: {deviceClassName: %s%s}
                """.formatted(request, deviceClass, count == null ? "" : ", count: " + count);
    }
}
