package io.topobridge.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import io.topobridge.testing.Folders;
import io.topobridge.testing.PackagedApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image, built by the same code as {@code ./mvnw package -Pimage} but on a base assembled from this
 * machine's Java runtime ({@link LocalJavaBase}; no registry is reachable here): the archive is what {@code docker
 * load} reads, and the image runs. Its layers are unpacked into a folder and its own entrypoint runs there as its
 * own user under {@code chroot}, in fresh mount and PID namespaces with {@code /proc} and {@code /dev} mounted as a
 * container runtime would: {@code version} and {@code render} answer exactly as the packaged jar does.
 */
class ContainerImageIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION = System.getProperty("build.project.version", "unknown");

    @TempDir
    static Path work;

    private static Path archive;
    private static JsonNode manifest;
    private static JsonNode config;
    private static Path rootfs;

    @BeforeAll
    static void buildAndUnpack() throws Exception {
        Chroot.requireRootOnLinux();
        long start = System.nanoTime();
        Path base = work.resolve("base.tar");
        LocalJavaBase.write(
                Path.of(System.getProperty("java.home")), base, "topobridge-test-base:java", work.resolve("cache"));
        archive = work.resolve("topobridge-image.tar");
        ContainerImage.build(new ContainerImage.Spec(
                PackagedApp.jar().getParent(),
                "tar://" + base,
                "topobridge:" + VERSION,
                VERSION,
                archive,
                work.resolve("cache"),
                "",
                ImageFormat.Docker));

        Path unpacked = Files.createDirectories(work.resolve("archive"));
        Chroot.exec(List.of("tar", "-xf", archive.toString(), "-C", unpacked.toString()), Map.of(), 120);
        manifest = JSON.readTree(unpacked.resolve("manifest.json").toFile());
        config = JSON.readTree(
                unpacked.resolve(manifest.get(0).path("Config").asText()).toFile());
        rootfs = Files.createDirectories(work.resolve("rootfs"));
        for (JsonNode layer : manifest.get(0).path("Layers")) {
            Chroot.exec(
                    List.of("tar", "-xf", unpacked.resolve(layer.asText()).toString(), "-C", rootfs.toString()),
                    Map.of(),
                    120);
        }
        System.out.printf(
                "image %s: %d MiB, built and unpacked in %d s%n",
                archive.getFileName(),
                Files.size(archive) >> 20,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
    }

    @Test
    void archiveIsADockerImageArchiveWithTheApplicationLayersOnTheBase() {
        assertThat(manifest.size()).isEqualTo(1);
        assertThat(manifest.get(0).path("RepoTags").get(0).asText()).isEqualTo("topobridge:" + VERSION);
        JsonNode layers = manifest.get(0).path("Layers");
        // the base's three layers, then dependencies, launcher, Quarkus' generated code, the application
        assertThat(layers).hasSize(3 + 4);
        assertThat(config.path("rootfs").path("diff_ids")).hasSize(layers.size());
        assertThat(config.path("os").asText()).isEqualTo("linux");
        JsonNode container = config.path("config");
        assertThat(container.path("User").asText()).isEqualTo(ContainerImage.USER);
        assertThat(Chroot.texts(container.path("Entrypoint"))).isEqualTo(ContainerImage.ENTRYPOINT);
        assertThat(Chroot.texts(container.path("Entrypoint"))).contains("-XX:MaxRAMPercentage=75.0");
        assertThat(container.path("Cmd").isMissingNode()
                        || container.path("Cmd").isNull()
                        || container.path("Cmd").isEmpty())
                .isTrue();
        assertThat(container.path("WorkingDir").asText()).isEqualTo(ContainerImage.APP_ROOT);
        assertThat(container.path("ExposedPorts").has("8080/tcp")).isTrue();
        assertThat(container.path("ExposedPorts").has("8443/tcp")).isTrue();
        assertThat(container
                        .path("Labels")
                        .path("org.opencontainers.image.version")
                        .asText())
                .isEqualTo(VERSION);
        assertThat(Chroot.env(config).get("PATH"))
                .as("the base's environment is kept")
                .contains("/bin");
    }

    @Test
    void applicationFilesBelongToRootAndAreReadOnlyForTheImagesUser() throws Exception {
        Path jar = rootfs.resolve("deployments/quarkus-run.jar");
        assertThat(jar).isRegularFile();
        assertThat(Files.getAttribute(jar, "unix:uid")).isEqualTo(0);
        assertThat(Files.getPosixFilePermissions(jar).toString()).doesNotContain("OTHERS_WRITE", "GROUP_WRITE");
        try (var jars = Files.list(rootfs.resolve("deployments/lib/main"))) {
            assertThat(jars.count()).as("the fast-jar dependencies").isGreaterThan(50);
        }
        assertThat(rootfs.resolve("deployments/quarkus/quarkus-application.dat"))
                .isRegularFile();
        assertThat(rootfs.resolve("deployments/app")).isDirectory();
    }

    /**
     * The application's layers as the archive holds them (not as a host unpacks them): every entry belongs to user 0
     * and group 0, files are readable and folders traversable by group 0 (OpenShift runs the image as an arbitrary UID
     * in group 0), and nothing is writable by anyone but root, so the process can change none of its own files.
     */
    @Test
    void applicationLayersAreOwnedByRootReadableByGroupZeroAndWritableByNoneElse() throws Exception {
        JsonNode layers = manifest.get(0).path("Layers");
        List<String> problems = new ArrayList<>();
        int entries = 0;
        // the base's layers come first; the application's four are the last
        for (int i = layers.size() - 4; i < layers.size(); i++) {
            Path layer = work.resolve("archive").resolve(layers.get(i).asText());
            var listing = Chroot.exec(List.of("tar", "--numeric-owner", "-tvf", layer.toString()), Map.of(), 120);
            for (String line : listing.stdout().lines().toList()) {
                // -rw-r--r-- 0/0  1234 1970-01-01 00:00 deployments/lib/main/x.jar
                String[] fields = line.trim().split("\\s+", 6);
                String mode = fields[0];
                String owner = fields[1];
                String path = fields[5];
                entries++;
                boolean folder = mode.startsWith("d");
                if (!owner.equals("0/0")) {
                    problems.add(path + " belongs to " + owner);
                }
                if (mode.charAt(4) != 'r' || folder && mode.charAt(6) != 'x') {
                    problems.add(path + " is " + mode + ": group 0 cannot " + (folder ? "list it" : "read it"));
                }
                if (mode.charAt(5) == 'w' || mode.charAt(8) == 'w') {
                    problems.add(path + " is " + mode + ": writable by group 0 or others");
                }
            }
        }
        assertThat(entries).as("entries of the application layers").isGreaterThan(50);
        assertThat(problems).isEmpty();
    }

    @Test
    void versionRunsFromTheImagesOwnFilesystem() throws Exception {
        var run = runImage(List.of("version"));
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr()).isEmpty();
        assertThat(run.stdout()).startsWith("topobridge " + VERSION + "\njava ");
        assertThat(run.stdout()).isEqualTo(PackagedApp.run("version").stdout());
    }

    @Test
    void renderInTheImageAnswersAsThePackagedJar() throws Exception {
        examplesInTheImage();
        var inImage = runImage(List.of("render", "/input/examples"));
        var onHost = PackagedApp.run("render", "examples");
        assertThat(inImage.exitCode()).as(inImage.stderr()).isEqualTo(onHost.exitCode());
        assertThat(inImage.stdout())
                .contains("kind: HyperNode", "kind: PodGroup")
                .isEqualTo(onHost.stdout());
        assertThat(inImage.stderr().lines().count())
                .isEqualTo(onHost.stderr().lines().count());
    }

    /**
     * As OpenShift's restricted-v2 SCC runs it: a UID from a namespace's range that the image does not know, group 0,
     * the root filesystem read-only (the chart's readOnlyRootFilesystem) and an empty folder at /tmp (the chart's
     * emptyDir). {@code version} and {@code render} answer as under the image's own user.
     */
    @Test
    void versionAndRenderRunAsAnArbitraryUidInGroupZeroOnAReadOnlyRoot() throws Exception {
        Path tmp = Files.createDirectories(work.resolve("tmp-volume"));
        Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        var version = runImage(ARBITRARY_UID + ":0", tmp, List.of("version"));
        assertThat(version.exitCode()).as(version.stderr()).isZero();
        assertThat(version.stderr()).isEmpty();
        assertThat(version.stdout()).isEqualTo(PackagedApp.run("version").stdout());

        examplesInTheImage();
        var render = runImage(ARBITRARY_UID + ":0", tmp, List.of("render", "/input/examples"));
        var onHost = PackagedApp.run("render", "examples");
        assertThat(render.exitCode()).as(render.stderr()).isEqualTo(onHost.exitCode());
        assertThat(render.stdout()).contains("kind: PodGroup").isEqualTo(onHost.stdout());
        assertThat(render.stderr().lines().count())
                .isEqualTo(onHost.stderr().lines().count());
        try (var left = Files.walk(tmp)) {
            System.out.println("left in /tmp by version and render as UID " + ARBITRARY_UID + ": "
                    + left.filter(p -> !p.equals(tmp))
                            .map(p -> tmp.relativize(p).toString())
                            .toList());
        }
    }

    /** A UID in the range OpenShift gives a namespace, known to neither the image nor this machine. */
    private static final int ARBITRARY_UID = 1000680000;

    private static void examplesInTheImage() throws Exception {
        if (!Files.exists(rootfs.resolve("input/examples"))) {
            Folders.copy(Path.of("examples"), rootfs.resolve("input").resolve("examples"));
        }
    }

    /** Runs the image's entrypoint with {@code args} as the image's user, environment and root folder. */
    private PackagedApp.Run runImage(List<String> args) throws Exception {
        String user = config.path("config").path("User").asText();
        return runImage(user + ":" + user, null, args);
    }

    /**
     * Runs the entrypoint as {@code userspec} ({@code UID:GID}); with a {@code tmp} folder the root is a read-only bind
     * of the image's files with {@code tmp} at /tmp, as a pod with readOnlyRootFilesystem and an emptyDir at /tmp.
     */
    private PackagedApp.Run runImage(String userspec, Path tmp, List<String> args) throws Exception {
        assertThat(Path.of(ContainerImage.APP_ROOT))
                .as("the host must not have the image's files, or a run proves nothing")
                .doesNotExist();
        List<String> command =
                new ArrayList<>(Chroot.texts(config.path("config").path("Entrypoint")));
        command.addAll(args);
        return Chroot.run(rootfs, userspec, Chroot.env(config), Optional.empty(), tmp, command);
    }
}
