package io.topobridge.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reference data outside the project ({@code ../shared/upstream}: Volcano's and the workloads' real CRDs
 * and samples). Tests that need it skip with a clear message where it is absent, e.g. in a user's clone.
 */
public final class SharedData {

    private static final Path UPSTREAM = Path.of("..", "shared", "upstream").toAbsolutePath().normalize();

    private SharedData() {
    }

    /** {@code ../shared/upstream/<relative>}, or the test is skipped when it is absent. */
    public static Path upstream(String relative) {
        Path path = UPSTREAM.resolve(relative);
        assumeTrue(Files.exists(path), "skipped: upstream reference data " + path
                + " is absent (it lives outside the project, next to the checkout, in the team's workspace)");
        return path;
    }
}
