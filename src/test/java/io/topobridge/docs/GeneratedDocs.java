package io.topobridge.docs;

import io.topobridge.core.diagnosis.Doctor;
import io.topobridge.testing.GeneratedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The generated regions of the manual: the configuration reference in {@code docs/configuration.md} and the findings
 * reference in {@code docs/findings.md}, each between a begin and an end marker; the text around them is written by
 * hand. {@link GeneratedDocsTest} fails when a committed page differs from what this produces;
 * {@code ./mvnw -B -q test -Dtest=GeneratedDocsTest -Ddocs.update=true} (or {@link #main} with the test classpath)
 * rewrites the regions.
 */
public final class GeneratedDocs {

    /** The command that rewrites the generated regions, as the failing test prints it. */
    public static final String UPDATE_COMMAND =
            "./mvnw -B -q test -Dtest=GeneratedDocsTest -Dsurefire.failIfNoSpecifiedTests=false -Ddocs.update=true";

    /** One generated region: the page, the region's name in its markers, and what produces its content. */
    public record Region(Path page, String name, Function<Path, String> content) {

        String begin() {
            return "<!-- BEGIN GENERATED " + name + ": do not edit; regenerate with " + UPDATE_COMMAND + " -->";
        }

        String end() {
            return "<!-- END GENERATED " + name + " -->";
        }
    }

    private GeneratedDocs() {}

    /** Every generated region, relative to the project directory. */
    public static List<Region> regions() {
        return List.of(
                new Region(
                        Path.of("docs", "configuration.md"),
                        "configuration-reference",
                        root -> ConfigReference.markdown(ConfigReference.read(root.resolve("src/main/java")))),
                new Region(Path.of("docs", "diagnosis.md"), "doctor-checks", root -> doctorChecks()),
                new Region(
                        Path.of("docs", "findings.md"),
                        "reasons-reference",
                        root -> ReasonReference.markdown(ReasonReference.read(root.resolve("src/main/java")))));
    }

    /** The table of the doctor's checks, from their catalog. */
    static String doctorChecks() {
        StringBuilder out = new StringBuilder("| check | fails (or warns) when | finding reason |\n|---|---|---|");
        for (Doctor.Check c : Doctor.checks()) {
            out.append("\n| `")
                    .append(c.name())
                    .append("` | ")
                    .append(c.failsWhen())
                    .append(" | ")
                    .append(c.reasons())
                    .append(" |");
        }
        return out.toString();
    }

    /** {@code page} with the region's content replaced by what the code says now. */
    public static String render(String page, Region region, Path root) {
        int begin = page.indexOf(region.begin());
        int end = page.indexOf(region.end());
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(region.page() + " lacks the markers of the generated region "
                    + region.name() + ": a line " + region.begin() + " and, below it, a line " + region.end());
        }
        return page.substring(0, begin + region.begin().length()) + "\n"
                + region.content().apply(root) + "\n" + page.substring(end);
    }

    /** The pages whose generated regions differ from the code, after rewriting them if {@code update}. */
    public static List<Path> check(Path root, boolean update) {
        List<Path> stale = new ArrayList<>();
        for (Region region : regions()) {
            Path file = root.resolve(region.page());
            try {
                String page = Files.readString(file);
                String fresh = render(page, region, root);
                if (!fresh.equals(page)) {
                    stale.add(region.page());
                    if (update) {
                        Files.writeString(file, fresh);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return stale;
    }

    /**
     * {@code GeneratedDocs [--check] [project dir]}: rewrites the generated regions (or, with {@code --check}, exits 1
     * naming the stale pages). Needs the test classpath: the references read the compiled configuration interfaces and
     * reason enums next to their sources.
     */
    public static void main(String[] args) {
        boolean checkOnly = args.length > 0 && args[0].equals("--check");
        Path root = Path.of(args.length > (checkOnly ? 1 : 0) ? args[checkOnly ? 1 : 0] : ".");
        GeneratedFiles.run(
                GeneratedDocs::check, root, checkOnly, "the generated regions of the manual", UPDATE_COMMAND);
    }
}
