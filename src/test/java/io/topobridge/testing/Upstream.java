package io.topobridge.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The upstream Go modules the build fetched ({@code src/test/go/build.sh modules}, linked under
 * {@code target/upstream/<name>}): Volcano's, LeaderWorkerSet's and AIBrix's own CRDs, policies and samples at the
 * pinned versions. Tests read reference data from here and never skip: a missing module is a build error.
 */
public final class Upstream {

    private static final Path ROOT = Path.of(System.getProperty("topobridge.upstream", "target/upstream"))
            .toAbsolutePath()
            .normalize();

    private Upstream() {}

    /** The folder of one module: {@code volcano}, {@code lws} or {@code aibrix}. */
    public static Path module(String name) {
        Path dir = ROOT.resolve(name);
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException(
                    "the upstream module " + name + " is missing under " + ROOT
                            + ": ./mvnw links it while generating test resources (src/test/go/build.sh modules), which needs Go");
        }
        return dir;
    }

    /** A file inside a module, which must exist. */
    public static Path file(String module, String relative) {
        Path file = module(module).resolve(relative);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    "expected " + relative + " in the upstream module " + module + " (" + file + ")");
        }
        return file;
    }
}
