package io.topobridge.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The class-data archive (CDS) of the bridge's JVM for one cluster run: the first bridge started writes it as it
 * exits ({@code -XX:ArchiveClassesAtExit}), and every bridge started after that maps it ({@code
 * -XX:SharedArchiveFile}) instead of loading and verifying its classes from the jar again. This tier starts a
 * bridge some sixty times; on the 2-core machine a start took a median 3.4 s with the archive and C1 alone, 8.5 s
 * without.
 *
 * <p>The archive is written to a file of its own and moved into place only once its writer has exited of itself or
 * on SIGTERM, so no JVM ever maps a file still being written or cut short. A writer SIGKILLed leaves nothing: the
 * next start writes again. A JVM that finds the archive unusable (another JDK, another jar) says so on its log and starts without it.
 */
final class ClassArchive {

    private static final Map<Path, ClassArchive> RUNS = new ConcurrentHashMap<>();

    private final Path archive;
    private final Path pending;
    private Component writer;
    private boolean writing;

    private ClassArchive(Path runDir) {
        this.archive = runDir.resolve("bridge-classes.jsa").toAbsolutePath();
        this.pending = runDir.resolve("bridge-classes.jsa.pending").toAbsolutePath();
    }

    static ClassArchive of(Path runDir) {
        return RUNS.computeIfAbsent(runDir.toAbsolutePath(), ClassArchive::new);
    }

    /** The JVM options of the next bridge start. */
    synchronized List<String> options() {
        promote();
        if (Files.isRegularFile(archive)) {
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        if (writing) {
            // another bridge writes it when it exits: this one starts without
            return List.of();
        }
        writing = true;
        return List.of("-XX:ArchiveClassesAtExit=" + pending);
    }

    /** Records the process just started with {@link #options()}'s choice. */
    synchronized void started(Component process) {
        if (writing && writer == null && process.command().contains("-XX:ArchiveClassesAtExit=" + pending)) {
            writer = process;
        }
    }

    /** Moves a finished archive into place, or gives up on a writer that ended without one. */
    private void promote() {
        if (writer == null || writer.alive()) {
            return;
        }
        Integer exit = writer.exitValue();
        try {
            // 137: SIGKILLed, maybe in the middle of writing; a JVM that exited of itself or on SIGTERM wrote it whole
            if (exit != null && exit != 137 && Files.isRegularFile(pending) && Files.size(pending) > 0) {
                Files.move(pending, archive, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(pending);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move the bridge's class archive into place: " + pending, e);
        }
        writer = null;
        writing = false;
    }
}
