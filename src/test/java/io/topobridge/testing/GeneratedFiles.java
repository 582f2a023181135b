package io.topobridge.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

/**
 * Committed files a generator in test code keeps current (the OLM bundle, the manual's references): the test that
 * they are current and the command line that rewrites them share one way of checking.
 */
public final class GeneratedFiles {

    /** A generator: the files under {@code root} that differ from what it makes, rewritten first when asked. */
    @FunctionalInterface
    public interface Generator {
        List<Path> check(Path root, boolean update);
    }

    private GeneratedFiles() {}

    /**
     * Asserts the committed files are current; with the system property {@code updateProperty} true they are rewritten
     * first, then checked again.
     */
    public static void assertCurrent(
            Generator generator, Path root, String updateProperty, String what, String updateCommand) {
        boolean update = Boolean.getBoolean(updateProperty);
        List<Path> stale = generator.check(root, update);
        if (update) {
            stale = generator.check(root, false);
        }
        assertThat(stale)
                .as(what + " out of date; regenerate with `" + updateCommand + "`, then review the diff")
                .isEmpty();
    }

    /** The command line: rewrites the files, or with {@code checkOnly} exits 1 naming the stale ones. */
    public static void run(Generator generator, Path root, boolean checkOnly, String what, String updateCommand) {
        List<Path> stale = generator.check(root, !checkOnly);
        if (stale.isEmpty()) {
            System.out.println(what + " current");
        } else if (checkOnly) {
            System.err.println(what + " stale: " + stale + "; regenerate with " + updateCommand);
            System.exit(1);
        } else {
            System.out.println(what + " rewritten: " + stale);
        }
    }
}
