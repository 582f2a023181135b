package io.topobridge.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The Kubernetes control plane the tier runs: kube-apiserver and kube-controller-manager of the pin of
 * {@code src/test/go/build.sh}, or of another minor of the matrix ({@code -Dtopobridge.e2e.kubernetes=1.33}, built by
 * {@code src/test/go/kubernetes.sh} from {@code src/test/go/kubernetes-MINOR}; docs/compatibility.md).
 */
final class KubernetesMinor {

    /** {@link #minor()} when the tier runs the Kubernetes that {@code src/test/go/build.sh} pins. */
    static final String PINNED = "pinned";

    /** The version each minor of the matrix builds (each {@code kubernetes-MINOR/go.mod}). */
    private static final Map<String, String> VERSIONS =
            Map.of(PINNED, "v1.35.3", "1.30", "v1.30.14", "1.32", "v1.32.2", "1.33", "v1.33.13", "1.37", "v1.37.2");

    /**
     * The oldest minor measured to pass, the chart's {@code kubeVersion}: on 1.30 Volcano v1.15.1's own HyperNode
     * admission policy is refused (docs/compatibility.md), so the cluster does not start.
     */
    static final String OLDEST_PASSING = "1.32";

    private KubernetesMinor() {}

    /** The minor this tier runs ({@code -Dtopobridge.e2e.kubernetes}), or {@value #PINNED}. */
    static String minor() {
        String minor = System.getProperty("topobridge.e2e.kubernetes", PINNED).trim();
        return minor.isEmpty() ? PINNED : minor;
    }

    /** The version kube-apiserver reports on this tier. */
    static String version() {
        return version(minor());
    }

    /** The version {@code minor} of the matrix builds. */
    static String version(String minor) {
        String version = VERSIONS.get(minor);
        if (version == null) {
            throw new IllegalStateException("no Kubernetes " + minor + " in the matrix: " + VERSIONS.keySet());
        }
        return version;
    }

    /** The minor number of {@link #version()} (35 for v1.35.3). */
    static int minorNumber() {
        return Integer.parseInt(version().split("\\.")[1]);
    }

    /** Whether {@code name} is a binary of the control plane this class chooses. */
    static boolean chooses(String name) {
        return name.equals("kube-apiserver") || name.equals("kube-controller-manager");
    }

    /** The folder of kube-apiserver and kube-controller-manager: {@code pinnedBin}, or the matrix minor's build. */
    static Path bin(Path root, Path pinnedBin) {
        if (minor().equals(PINNED)) {
            return pinnedBin;
        }
        Path bin = root.resolve("kubernetes-" + minor()).resolve("bin");
        if (!Files.isRegularFile(bin.resolve(".complete"))) {
            throw new IllegalStateException("Kubernetes " + minor() + " is not built under " + bin
                    + ": ./mvnw builds it in pre-integration-test (src/test/go/kubernetes.sh)");
        }
        return bin;
    }
}
