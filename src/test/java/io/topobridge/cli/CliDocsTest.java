package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The CLI the README and docs/cli.md describe is the CLI there is: every example command line in their shell blocks
 * parses as it is written, and every flag a synopsis names (in a shell block or in running text) exists on that
 * command.
 */
class CliDocsTest {

    private static final List<Path> PAGES = List.of(Path.of("README.md"), Path.of("docs", "cli.md"));
    private static final Pattern INVOCATION = Pattern.compile(
            "(?:kubectl topobridge|quarkus-run\\.jar|^topobridge)\\s+((?:render|doctor|explain|version)\\b.*)");
    private static final Pattern PROSE_SYNOPSIS = Pattern.compile("`((?:render|doctor|explain) \\[[^`]*)`");
    private static final Pattern FLAG = Pattern.compile("(?<![\\w-])(--?[a-zA-Z][\\w-]*)");

    /** A command line a page shows, and where. */
    record Shown(String where, String line) {
        @Override
        public String toString() {
            return where + ": " + line;
        }
    }

    static List<Shown> shown() throws IOException {
        List<Shown> out = new ArrayList<>();
        for (Path page : PAGES) {
            boolean shell = false;
            int number = 0;
            for (String line : Files.readAllLines(page)) {
                number++;
                if (line.startsWith("```")) {
                    shell = !shell && line.startsWith("```shell");
                    continue;
                }
                if (shell) {
                    Matcher m = INVOCATION.matcher(line.strip());
                    if (m.find()) {
                        out.add(new Shown(page + ":" + number, m.group(1).replaceFirst("\\s+#.*$", "")));
                    }
                } else {
                    Matcher m = PROSE_SYNOPSIS.matcher(line);
                    while (m.find()) {
                        out.add(new Shown(page + ":" + number, m.group(1)));
                    }
                }
            }
        }
        return out;
    }

    static Stream<Shown> examples() throws IOException {
        return shown().stream().filter(s -> !s.line().contains("["));
    }

    static Stream<Shown> synopses() throws IOException {
        return shown().stream().filter(s -> s.line().contains("["));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyExampleParses(Shown shown) {
        String[] args = Arrays.stream(
                        shown.line().replaceFirst("\\s+<\\s+\\S+\\s*$", "").split("\\s+"))
                .map(a -> a.replace("$PWD", "."))
                .toArray(String[]::new);
        assertThatCode(() -> new CommandLine(TopobridgeCommand.class).parseArgs(args))
                .as(shown.toString())
                .doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("synopses")
    void everyFlagOfASynopsisExists(Shown shown) {
        String command = shown.line().split("\\s+")[0];
        var spec = new CommandLine(TopobridgeCommand.class)
                .getSubcommands()
                .get(command)
                .getCommandSpec();
        Matcher m = FLAG.matcher(shown.line().substring(command.length()));
        List<String> flags = new ArrayList<>();
        while (m.find()) {
            flags.add(m.group(1));
        }
        assertThat(flags).as(shown.toString()).isNotEmpty();
        assertThat(flags)
                .as(shown.toString())
                .allSatisfy(flag -> assertThat(spec.findOption(flag))
                        .as(command + " " + flag)
                        .isNotNull());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.topobridge.cli.CliDocsTest#pages")
    void theDocumentedCommandsAreAllShown(Path page) throws IOException {
        assertThat(shown().stream().filter(s -> s.where().startsWith(page.toString())))
                .as("command lines on " + page)
                .isNotEmpty();
    }

    static Stream<Path> pages() {
        return PAGES.stream();
    }
}
