package io.topobridge.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topobridge.core.finding.Severity;
import io.topobridge.testing.ConfigKeys;
import io.topobridge.testing.GeneratedFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated references of the manual are what the code says: the configuration keys with their defaults and
 * Javadoc, the finding reasons with their severities and Javadoc. {@code -Ddocs.update=true} rewrites them.
 */
class GeneratedDocsTest {

    private static final Path ROOT = Path.of("");
    private static final Path SOURCES = Path.of("src/main/java");

    @Test
    void theCommittedPagesEqualWhatTheGeneratorProduces() {
        GeneratedFiles.assertCurrent(
                GeneratedDocs::check, ROOT, "docs.update", "generated regions", GeneratedDocs.UPDATE_COMMAND);
    }

    @Test
    void theConfigurationReferenceHasEveryKeyOnceWithADescription() {
        List<ConfigReference.Key> keys = ConfigReference.read(SOURCES).stream()
                .flatMap(g -> g.keys().stream())
                .toList();
        assertThat(keys.stream().map(ConfigReference.Key::name)).containsExactlyInAnyOrderElementsOf(ConfigKeys.all());
        assertThat(keys)
                .allSatisfy(k -> assertThat(k.description()).as(k.name()).isNotBlank());
        Map<String, ConfigReference.Key> byName =
                keys.stream().collect(Collectors.toMap(ConfigReference.Key::name, Function.identity()));
        assertThat(byName.get("topobridge.workloads.auto-wait-for-room"))
                .isEqualTo(new ConfigReference.Key(
                        "topobridge.workloads",
                        "topobridge.workloads.auto-wait-for-room",
                        "duration",
                        "5m",
                        byName.get("topobridge.workloads.auto-wait-for-room").description()));
        assertThat(byName.get("topobridge.topology.tiers").type()).isEqualTo("list of strings (comma separated)");
        assertThat(byName.get("topobridge.topology.tiers").defaultValue()).isNull();
        assertThat(byName.get("topobridge.dev-cluster.kind").type()).isEqualTo("`mock` or `real`");
        assertThat(byName.get("topobridge.admission.tls.check-interval").description())
                .as("a nested interface's key takes the Javadoc of its own method")
                .startsWith("How often the Secret is read");
    }

    @Test
    void theFindingsReferenceReadsSeveritiesFromWhereTheCodeRaisesEachReason() {
        Map<String, Set<Severity>> byReason = new TreeMap<>();
        Map<String, String> meaning = new TreeMap<>();
        for (ReasonReference.Group g : ReasonReference.read(SOURCES)) {
            for (ReasonReference.Entry e : g.entries()) {
                byReason.put(e.enumName() + "." + e.constant(), e.severities());
                meaning.put(e.enumName() + "." + e.constant(), e.meaning());
            }
        }
        assertThat(byReason)
                .containsEntry("WorkloadReason.INVALID_ANNOTATION", Set.of(Severity.REJECTED))
                // through PodGroupChanges.about (a foreign PodGroup) and refusal (another scope's): both severities
                .containsEntry("WorkloadReason.NAME_TAKEN", Set.of(Severity.WARNING, Severity.REJECTED))
                .containsEntry("WorkloadReason.APPLY_REFUSED", Set.of(Severity.WARNING))
                // the two arms of one conditional argument
                .containsEntry("WorkloadReason.QUEUE_MISSING", Set.of(Severity.WARNING))
                .containsEntry("WorkloadReason.QUEUE_NOT_OPEN", Set.of(Severity.WARNING))
                // through PodGroupChanges.refusal
                .containsEntry("WorkloadReason.GANG_EXCEEDS_QUEUE", Set.of(Severity.REJECTED))
                // through Doctor's own helper named like a factory
                .containsEntry("DoctorReason.LABEL_DISCOVERY_OVERLAP", Set.of(Severity.WARNING))
                .containsEntry("TopologyReason.NO_MATCHING_NODES", Set.of(Severity.WARNING, Severity.INFO))
                .containsEntry("InputReason.UNREADABLE_DOCUMENT", Set.of(Severity.REJECTED))
                .containsEntry("PendingReason.NO_DOMAIN_FITS", Set.of());
        assertThat(meaning.get("TopologyReason.SINGLE_DOMAIN_TIER")).contains("allows any placement");
        assertThat(meaning).allSatisfy((k, v) -> assertThat(v).as(k).isNotBlank());
    }

    static Stream<Arguments> javadocCases() {
        return Stream.of(
                Arguments.of(
                        "method of a nested interface", """
                        interface Outer {
                            /** Outer's. */
                            int a();
                            /** The nested one. */
                            interface Inner {
                                /** Inner's {@code a}, with "quotes" and a {@link Outer#a() link}. */
                                @WithDefault("{")
                                int a();
                            }
                            /** After the nested one. */
                            int b();
                        }
                        """, "Inner", "a", "Inner's `a`, with \"quotes\" and a link."),
                Arguments.of(
                        "outer method after a nested type with braces in strings",
                        """
                        interface Outer {
                            interface Inner { String X = "}}"; }
                            /** After the nested one. */
                            int b();
                        }
                        """,
                        "Outer",
                        "b",
                        "After the nested one."),
                Arguments.of(
                        "enum constant, block tags cut, pipes escaped",
                        """
                        public enum R implements Reason {
                            /**
                             * First line
                             * second line: a | b.
                             *
                             * @see Other
                             */
                            FIRST_ONE,
                            /** Last. */
                            LAST
                        }
                        """,
                        "R",
                        "FIRST_ONE",
                        "First line second line: a \\| b."),
                Arguments.of("enum nested in a class with code around it", """
                        public final class Holder {
                            private final String s = "/** not a doc */ {";
                            /** Why. */
                            public enum Reasons implements Reason {
                                /** The only one. */
                                ONLY
                            }
                            void m() { if (true) { } }
                        }
                        """, "Reasons", "ONLY", "The only one."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("javadocCases")
    void javaSourceFindsTheJavadocOfEachDeclaration(
            String name, String source, String type, String member, String doc) {
        assertThat(JavaSource.parse(source).doc(type, member)).contains(doc);
    }

    @Test
    void theSeverityScanFollowsFactoriesConstructorsAndHelpers(@TempDir Path dir) throws IOException {
        write(dir, "R.java", """
                public enum R implements Reason { A, B, C, D, E, F, G, H }
                """);
        write(dir, "Raiser.java", """
                class Raiser {
                    List<Finding> run(boolean x) {
                        out.add(Finding.rejected(R.A, ref, "m"));
                        out.add(new Finding(Severity.INFO, R.B, ref, "k", "m"));
                        out.addAll(about(result, x ? R.C : R.D, "k", message(R.H)));
                        if (found.reason() == R.E) {
                            out.addAll(Helpers.refuse(R.F));
                        }
                        return out;
                    }
                    static List<Finding> about(Result result, R reason, String key, String message) {
                        return List.of(Finding.warning(reason, ref, message).withKey(key));
                    }
                }
                """);
        write(dir, "Helpers.java", """
                final class Helpers {
                    static List<Finding> refuse(R reason) {
                        return twice(reason);
                    }
                    private static List<Finding> twice(R reason) {
                        return List.of(Finding.rejected(reason, ref, "m"), Finding.rejected(reason, ref, "m"));
                    }
                    void other() { refuse(R.G); }
                }
                """);
        Map<Path, JavaSource> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.forEach(p -> files.put(p, JavaSource.read(p)));
        }
        Map<String, Set<Severity>> found = ReasonReference.severities(files);
        assertThat(found)
                .containsEntry("R.A", Set.of(Severity.REJECTED))
                .containsEntry("R.B", Set.of(Severity.INFO))
                .containsEntry("R.C", Set.of(Severity.WARNING))
                .containsEntry("R.D", Set.of(Severity.WARNING))
                .containsEntry("R.F", Set.of(Severity.REJECTED))
                .containsEntry("R.G", Set.of(Severity.REJECTED))
                .doesNotContainKey("R.E") // compared, not raised
                .doesNotContainKey("R.H"); // an argument of a nested call, not of the helper
    }

    @Test
    void aPageWithoutItsMarkersIsAnErrorNamingThem() {
        GeneratedDocs.Region region = GeneratedDocs.regions().get(0);
        assertThatThrownBy(() -> GeneratedDocs.render("# no markers\n", region, ROOT))
                .hasMessageContaining("docs/configuration.md")
                .hasMessageContaining(region.begin());
    }

    private static void write(Path dir, String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text);
    }
}
