package io.topobridge.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The release's tag rule on real git repositories: the version comes from HEAD's tag or the build refuses. */
class ReleaseVersionTest {

    @TempDir
    Path repo;

    @BeforeEach
    void commit() throws Exception {
        git("init", "-q");
        Files.writeString(repo.resolve("README.md"), "one\n");
        git("add", "README.md");
        git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "one");
    }

    @Test
    void aTaggedCleanCommitReleasesItsTagsVersion() throws Exception {
        git("tag", "v0.2.0");
        Release.checkVersion("0.2.0", repo);
        git("tag", "v0.3.0-rc.1");
        Release.checkVersion("0.3.0-rc.1", repo);
    }

    @Test
    void aDevelopmentVersionIsRefusedNamingTheTagToUse() throws Exception {
        git("tag", "v0.2.0");
        assertThatThrownBy(() -> Release.checkVersion("0.1.0-SNAPSHOT", repo))
                .hasMessageContaining("'0.1.0-SNAPSHOT' is not a release version")
                .hasMessageContaining("HEAD is tagged v0.2.0: run ./mvnw -B -Prelease package -Drevision=0.2.0");
        assertThatThrownBy(() -> Release.checkVersion("2.0", repo)).hasMessageContaining("'2.0' is not a release");
    }

    @Test
    void aVersionThatIsNotHeadsTagIsRefused() throws Exception {
        assertThatThrownBy(() -> Release.checkVersion("0.2.0", repo))
                .hasMessageContaining("HEAD is not tagged v0.2.0 (its tags: none)")
                .hasMessageContaining("git tag vX.Y.Z");
        git("tag", "v0.1.9");
        assertThatThrownBy(() -> Release.checkVersion("0.2.0", repo)).hasMessageContaining("(its tags: v0.1.9)");
    }

    @Test
    void uncommittedChangesAreRefused() throws Exception {
        git("tag", "v0.2.0");
        Files.writeString(repo.resolve("README.md"), "two\n");
        assertThatThrownBy(() -> Release.checkVersion("0.2.0", repo))
                .hasMessageContaining("1 uncommitted change(s), e.g. 'M README.md'");
    }

    @Test
    void aFolderThatIsNoRepositoryIsNamed(@TempDir Path empty) {
        assertThatThrownBy(() -> Release.checkVersion("0.2.0", empty))
                .hasMessageContaining("a release is built from a git work tree");
    }

    private void git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0)
                .as(command + ": " + output)
                .isTrue();
    }
}
