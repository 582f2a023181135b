package io.topobridge.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.testing.Folders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code bundle/} passes operator-framework/api's validators (the default bundle ones, OperatorHub's metadata, good
 * practices, objects and deprecated APIs), run by {@code validate-bundle}, which the build makes from
 * {@code src/test/go/olm} ({@code build.sh validator}); a broken copy fails them, so the check can fail.
 */
public class BundleValidationTest {

    private static final Path VALIDATOR = Path.of(System.getProperty("topobridge.olm", "target/olm"))
            .resolve("validate-bundle")
            .toAbsolutePath();

    /** The validator's exit code and what it printed. */
    public record Run(int exit, String output) {}

    @Test
    void theCommittedBundlePassesWithoutErrors() throws Exception {
        Run run = validate(OlmBundle.BUNDLE.toAbsolutePath());
        // the warnings, for whoever reads the test's output
        System.out.print(run.output());
        assertThat(run.output()).doesNotContain("ERROR").contains(": 0 errors");
        assertThat(run.exit()).isZero();
    }

    /** A change to one manifest of a copy of the bundle. */
    interface Breakage {
        void apply(ObjectNode manifest);
    }

    static Stream<Arguments> brokenCopies() {
        return Stream.of(
                Arguments.of(
                        "CSV without installModes (CSV validator)",
                        "topobridge.clusterserviceversion.yaml",
                        (Breakage) csv -> ((ObjectNode) csv.path("spec")).remove("installModes"),
                        "install modes not found"),
                Arguments.of(
                        "disruption budget that blocks every drain (object validator)",
                        "topobridge_policy_v1_poddisruptionbudget.yaml",
                        (Breakage) pdb -> ((ObjectNode) pdb.path("spec")).put("minAvailable", "100%"),
                        "minAvailable field cannot be set to 100%"),
                Arguments.of(
                        "minKubeVersion that is no version (OperatorHub validator)",
                        "topobridge.clusterserviceversion.yaml",
                        (Breakage) csv -> ((ObjectNode) csv.path("spec")).put("minKubeVersion", "1.27"),
                        "MinKubeVersion has an invalid value"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenCopies")
    void aBrokenCopyFailsValidationNamingTheError(
            String name, String manifest, Breakage breakage, String error, @TempDir Path dir) throws Exception {
        Folders.copy(OlmBundle.BUNDLE, dir);
        Path file = dir.resolve("manifests").resolve(manifest);
        YAMLMapper yaml = new YAMLMapper();
        ObjectNode object = (ObjectNode) yaml.readTree(file.toFile());
        breakage.apply(object);
        Files.writeString(file, yaml.writeValueAsString(object));
        Run run = validate(dir);
        // (two validators may report the same finding)
        assertThat(run.output().lines().filter(line -> line.startsWith("ERROR ")))
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains(error));
        assertThat(run.exit()).isEqualTo(1);
    }

    /** Runs the validator on the bundle folder {@code bundle} (the release's too: {@code ReleaseIT}). */
    public static Run validate(Path bundle) throws IOException, InterruptedException {
        if (!Files.isExecutable(VALIDATOR)) {
            throw new IllegalStateException(
                    "the OLM bundle validator is missing at " + VALIDATOR
                            + ": ./mvnw builds it while generating test resources (src/test/go/build.sh validator), which needs Go");
        }
        Process process = new ProcessBuilder(List.of(VALIDATOR.toString(), bundle.toString()))
                .redirectErrorStream(true)
                .start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the validator did not finish in 60 s");
        }
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
