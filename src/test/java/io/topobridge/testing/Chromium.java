package io.topobridge.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium, driven from the tests: a page's DOM after its scripts ran, and a screenshot. Each call
 * is a fresh browser with an empty profile, no network beyond what the page asks for, and a bounded run time.
 * The build installs the package when it runs as root (src/test/browser/install-chromium.sh); without it a test
 * fails saying so, never skips.
 */
public final class Chromium {

    public static final Path BINARY = Path.of("/usr/bin/chromium");
    /** Virtual time the page gets to fetch and draw before the DOM or the screenshot is taken. */
    private static final int BUDGET_MS = 8000;

    private Chromium() {}

    /** Fails with what to install when the browser is absent. */
    public static void require() {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: the browser tests need Debian's chromium package "
                    + "(apt-get install -y chromium; the build installs it when run as root)");
        }
    }

    /** The page's DOM once its scripts ran (and its first fetches answered). */
    public static String dumpDom(String url) {
        return new String(run(List.of("--dump-dom", url), null), StandardCharsets.UTF_8);
    }

    /** A PNG screenshot of the page at {@code width}×{@code height}. */
    public static Path screenshot(String url, Path png, int width, int height) {
        run(
                List.of(
                        "--screenshot=" + png.toAbsolutePath(),
                        "--window-size=" + width + "," + height,
                        "--hide-scrollbars",
                        url),
                png);
        if (!Files.isRegularFile(png)) {
            throw new IllegalStateException("chromium wrote no screenshot to " + png);
        }
        return png;
    }

    private static byte[] run(List<String> args, Path expected) {
        require();
        try {
            Path profile = Files.createTempDirectory("chromium-profile");
            List<String> command = new ArrayList<>(List.of(
                    BINARY.toString(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-dev-shm-usage",
                    "--user-data-dir=" + profile,
                    "--virtual-time-budget=" + BUDGET_MS));
            command.addAll(args);
            Path err = Files.createTempFile("chromium", ".log");
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("chromium did not finish within 90 s: " + command);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("chromium exited " + p.exitValue() + ": " + Files.readString(err));
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + BINARY + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
