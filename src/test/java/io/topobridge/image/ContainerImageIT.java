package io.topobridge.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import io.topobridge.testing.PackagedApp;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
        requireRootOnLinux();
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
        run(List.of("tar", "-xf", archive.toString(), "-C", unpacked.toString()), Map.of(), 120);
        manifest = JSON.readTree(unpacked.resolve("manifest.json").toFile());
        config = JSON.readTree(
                unpacked.resolve(manifest.get(0).path("Config").asText()).toFile());
        rootfs = Files.createDirectories(work.resolve("rootfs"));
        for (JsonNode layer : manifest.get(0).path("Layers")) {
            run(
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
        assertThat(texts(container.path("Entrypoint"))).isEqualTo(ContainerImage.ENTRYPOINT);
        assertThat(texts(container.path("Entrypoint"))).contains("-XX:MaxRAMPercentage=75.0");
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
        assertThat(env().get("PATH")).as("the base's environment is kept").contains("/bin");
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
        Path input = rootfs.resolve("input");
        copy(Path.of("examples"), input.resolve("examples"));
        var inImage = runImage(List.of("render", "/input/examples"));
        var onHost = PackagedApp.run("render", "examples");
        assertThat(inImage.exitCode()).as(inImage.stderr()).isEqualTo(onHost.exitCode());
        assertThat(inImage.stdout())
                .contains("kind: HyperNode", "kind: PodGroup")
                .isEqualTo(onHost.stdout());
        assertThat(inImage.stderr().lines().count())
                .isEqualTo(onHost.stderr().lines().count());
    }

    /** Runs the image's entrypoint with {@code args} as the image's user, environment and root folder. */
    private PackagedApp.Run runImage(List<String> args) throws Exception {
        assertThat(Path.of(ContainerImage.APP_ROOT))
                .as("the host must not have the image's files, or a run proves nothing")
                .doesNotExist();
        String user = config.path("config").path("User").asText();
        List<String> command = new ArrayList<>(List.of(
                tool("unshare"),
                "--mount",
                "--pid",
                "--fork",
                tool("sh"),
                "-c",
                // a private mount namespace: these mounts vanish with the process
                "root=$1; user=$2; shift 2; mount -t proc proc \"$root/proc\" && mount --rbind /dev \"$root/dev\" "
                        + "&& exec chroot --userspec=\"$user\" \"$root\" \"$@\"",
                "sh",
                rootfs.toString(),
                user + ":" + user));
        command.addAll(texts(config.path("config").path("Entrypoint")));
        command.addAll(args);
        return run(command, env(), 120);
    }

    private static Map<String, String> env() {
        Map<String, String> env = new TreeMap<>();
        for (JsonNode entry : config.path("config").path("Env")) {
            String[] kv = entry.asText().split("=", 2);
            env.put(kv[0], kv[1]);
        }
        return env;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static PackagedApp.Run run(List<String> command, Map<String, String> env, int seconds) throws Exception {
        Path out = Files.createTempFile("image-out", ".txt");
        Path err = Files.createTempFile("image-err", ".txt");
        try {
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (!env.isEmpty()) {
                builder.environment().clear();
                builder.environment().putAll(env);
            }
            Process process = builder.start();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("timed out after " + seconds + " s: " + command);
            }
            var run = new PackagedApp.Run(
                    process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            if (command.get(0).endsWith("tar") && run.exitCode() != 0) {
                fail(command + " failed: " + run.stderr());
            }
            return run;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static void copy(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    /** The image runs under chroot in new namespaces, which needs root on Linux: fail (not skip) where that is missing. */
    private static void requireRootOnLinux() throws Exception {
        if (!System.getProperty("os.name").startsWith("Linux")) {
            fail("the image test runs the image's own filesystem with chroot and needs Linux; this is "
                    + System.getProperty("os.name"));
        }
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        if (!Integer.valueOf(0).equals(uid)) {
            fail(
                    "the image test needs root (chroot, mount and PID namespaces), as on CI and the team's machines; uid is "
                            + uid);
        }
        for (String tool : List.of("unshare", "chroot", "mount", "sh", "tar", "ldd")) {
            tool(tool);
        }
    }

    private static String tool(String name) {
        Optional<Path> found = List.of(System.getenv()
                        .getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
                        .split(File.pathSeparator))
                .stream()
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
        return found.orElseThrow(() -> new AssertionError(
                        "the image test needs '" + name + "' (util-linux, coreutils, tar, " + "libc-bin) on PATH"))
                .toString();
    }
}
