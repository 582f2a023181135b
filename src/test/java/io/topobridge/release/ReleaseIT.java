package io.topobridge.release;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import io.topobridge.bundle.BundleValidationTest;
import io.topobridge.image.Chroot;
import io.topobridge.image.DebianJavaBase;
import io.topobridge.image.ImageIndex;
import io.topobridge.image.LocalJavaBase;
import io.topobridge.testing.Folders;
import io.topobridge.testing.HelmChart;
import io.topobridge.testing.PackagedApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release build's artefacts, made by the same code as {@code ./mvnw -Prelease package} from the packaged
 * application, on bases made on this machine (no registry is reachable here): linux/amd64 from this machine's Java
 * runtime, linux/arm64 from Debian's arm64 packages. The arm64 image is unpacked and its CLI runs under Debian's
 * user-mode QEMU exactly as the packaged jar answers; the chart package names the release's image; the CLI archive
 * runs as a kubectl plugin.
 */
class ReleaseIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION = System.getProperty("build.project.version", "unknown");

    @TempDir
    static Path work;

    private static Release.Artefacts built;
    private static Map<String, byte[]> image;
    private static JsonNode platforms;

    @BeforeAll
    static void release() throws Exception {
        Chroot.requireRootOnLinux();
        long start = System.nanoTime();
        Path amd64 = work.resolve("base-amd64.tar");
        LocalJavaBase.write(Path.of(System.getProperty("java.home")), amd64, "test-base:amd64", work.resolve("cache"));
        Path arm64 = work.resolve("base-arm64.tar");
        DebianJavaBase.write("arm64", arm64, "test-base:arm64", DebianJavaBase.defaultCache());
        Map<String, String> bases = new LinkedHashMap<>();
        bases.put("linux/amd64", "tar://" + amd64);
        bases.put("linux/arm64", "tar://" + arm64);
        built = Release.build(new Release.Spec(
                VERSION,
                null,
                PackagedApp.jar().getParent(),
                Path.of("helm/topobridge"),
                "registry.example.com/ml/topobridge",
                bases,
                work.resolve("release"),
                work.resolve("cache")));
        image = ImageIndex.read(built.image(), 1 << 20);
        JsonNode top = JSON.readTree(image.get("index.json"));
        platforms = JSON.readTree(image.get(
                ImageIndex.blob(top.path("manifests").get(0).path("digest").asText())));
        System.out.printf(
                "release %s: image %d MiB, chart %d KiB, CLI %d MiB, built in %d s%n",
                VERSION,
                Files.size(built.image()) >> 20,
                Files.size(built.chart()) >> 10,
                Files.size(built.cli()) >> 20,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
    }

    @Test
    void theImageArchiveIndexesAnAmd64AndAnArm64ImageSharingTheApplicationLayers() throws Exception {
        assertThat(built.image().getFileName().toString()).isEqualTo("topobridge-image-" + VERSION + ".oci.tar");
        JsonNode top = JSON.readTree(image.get("index.json"));
        assertThat(top.path("manifests")).hasSize(1);
        JsonNode named = top.path("manifests").get(0);
        assertThat(named.path("mediaType").asText()).isEqualTo(ImageIndex.INDEX_TYPE);
        assertThat(named.path("annotations").path(ImageIndex.REF_NAME).asText()).isEqualTo(VERSION);
        assertThat(named.path("annotations").path(ImageIndex.CONTAINERD_NAME).asText())
                .isEqualTo("registry.example.com/ml/topobridge:" + VERSION);
        assertThat(image).containsKey("oci-layout");

        Map<String, List<String>> layers = new TreeMap<>();
        for (JsonNode entry : platforms.path("manifests")) {
            String platform = entry.path("platform").path("os").asText() + "/"
                    + entry.path("platform").path("architecture").asText();
            JsonNode manifest = blob(entry.path("digest").asText());
            JsonNode config = blob(manifest.path("config").path("digest").asText());
            assertThat(config.path("os").asText() + "/"
                            + config.path("architecture").asText())
                    .as("the configuration of the %s image", platform)
                    .isEqualTo(platform);
            assertThat(config.path("config").path("User").asText()).isEqualTo("185");
            List<String> digests = new ArrayList<>();
            manifest.path("layers")
                    .forEach(layer -> digests.add(layer.path("digest").asText()));
            layers.put(platform, digests);
        }
        assertThat(layers).containsOnlyKeys("linux/amd64", "linux/arm64");
        List<String> amd64 = layers.get("linux/amd64");
        List<String> arm64 = layers.get("linux/arm64");
        // dependencies, launcher, Quarkus' generated code, the application: the same bits on both, stored once
        assertThat(arm64.subList(arm64.size() - 4, arm64.size()))
                .isEqualTo(amd64.subList(amd64.size() - 4, amd64.size()));
        assertThat(arm64.get(0)).isNotEqualTo(amd64.get(0));
        assertThat(countBlobs())
                .as("every layer once, shared ones not twice")
                .isEqualTo(new java.util.HashSet<>(concat(amd64, arm64)).size() + 2 * 2 + 1);
    }

    @Test
    void theArm64ImageRunsTheCliAsThePackagedJarAnswers() throws Exception {
        Path rootfs = unpack("arm64");
        Path java = rootfs.resolve("usr/lib/jvm/java-17-openjdk-arm64/bin/java");
        byte[] elf = Files.readAllBytes(java);
        assertThat(elf[18] & 0xff | (elf[19] & 0xff) << 8)
                .as("ELF machine of java: AArch64")
                .isEqualTo(183);
        JsonNode config = configOf("arm64");
        Map<String, String> env = Chroot.env(config);
        List<String> entrypoint = Chroot.texts(config.path("config").path("Entrypoint"));
        Optional<Path> qemu = DebianJavaBase.emulator("arm64", DebianJavaBase.defaultCache());

        var version = Chroot.run(rootfs, "185:185", env, qemu, null, concat(entrypoint, List.of("version")));
        assertThat(version.exitCode()).as(version.stderr()).isZero();
        assertThat(version.stdout()).startsWith("topobridge " + VERSION + "\njava 17.");

        Path input = rootfs.resolve("input");
        Folders.copy(Path.of("examples"), input.resolve("examples"));
        var inImage = Chroot.run(
                rootfs, "185:185", env, qemu, null, concat(entrypoint, List.of("render", "/input/examples")));
        var onHost = PackagedApp.run("render", "examples");
        assertThat(inImage.exitCode()).as(inImage.stderr()).isEqualTo(onHost.exitCode());
        assertThat(inImage.stdout())
                .contains("kind: HyperNode", "kind: PodGroup")
                .isEqualTo(onHost.stdout());
    }

    @Test
    void theChartPackageCarriesTheReleaseVersionAndRunsItsImage() throws Exception {
        assertThat(built.chart().getFileName().toString()).isEqualTo("topobridge-" + VERSION + ".tgz");
        Path unpacked = Files.createDirectories(work.resolve("chart"));
        Chroot.exec(List.of("tar", "-xzf", built.chart().toString(), "-C", unpacked.toString()), Map.of(), 60);
        JsonNode chart = new YAMLMapper()
                .readTree(unpacked.resolve("topobridge/Chart.yaml").toFile());
        assertThat(chart.path("version").asText()).isEqualTo(VERSION);
        assertThat(chart.path("appVersion").asText()).isEqualTo(VERSION);
        assertThat(unpacked.resolve("topobridge/templates")).isDirectory();

        String rendered = new Helm(built.chart())
                .template()
                .withKubeVersion(HelmChart.KUBE_VERSION)
                .withName("tb")
                .withNamespace("topobridge-system")
                .set("image.repository", "registry.example.com/ml/topobridge")
                .call();
        assertThat(rendered).contains("image: \"registry.example.com/ml/topobridge:" + VERSION + "\"");
    }

    @Test
    void theCliArchiveRunsAsAKubectlPlugin() throws Exception {
        assertThat(built.cli().getFileName().toString()).isEqualTo("topobridge-cli-" + VERSION + ".tar.gz");
        Path unpacked = Files.createDirectories(work.resolve("cli"));
        Chroot.exec(List.of("tar", "-xzf", built.cli().toString(), "-C", unpacked.toString()), Map.of(), 60);
        Path plugin = unpacked.resolve("topobridge-" + VERSION + "/kubectl-topobridge");
        assertThat(Files.isExecutable(plugin)).as(plugin + " is executable").isTrue();
        Map<String, String> env = new TreeMap<>(
                Map.of("PATH", "/usr/bin:/bin", "JAVA_HOME", System.getProperty("java.home"), "HOME", work.toString()));
        var run = Chroot.exec(List.of(plugin.toString(), "version"), env, 60);
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout()).startsWith("topobridge " + VERSION + "\n");
    }

    @Test
    void theOlmBundleRunsTheReleaseImageAndPassesOlmsValidators() throws Exception {
        String name = "topobridge-olm-bundle-" + VERSION;
        assertThat(built.bundle().getFileName().toString()).isEqualTo(name + ".tar.gz");
        Path unpacked = Files.createDirectories(work.resolve("bundle"));
        Chroot.exec(List.of("tar", "-xzf", built.bundle().toString(), "-C", unpacked.toString()), Map.of(), 60);
        Path bundle = unpacked.resolve(name);
        JsonNode csv = new YAMLMapper()
                .readTree(bundle.resolve("manifests/topobridge.clusterserviceversion.yaml")
                        .toFile());
        assertThat(csv.at("/metadata/name").asText()).isEqualTo("topobridge.v" + VERSION.toLowerCase(Locale.ROOT));
        assertThat(csv.at("/spec/version").asText()).isEqualTo(VERSION);
        assertThat(csv.at("/spec/install/spec/deployments/0/spec/template/spec/containers/0/image")
                        .asText())
                .isEqualTo("registry.example.com/ml/topobridge:" + VERSION);
        assertThat(bundle.resolve("metadata/annotations.yaml")).isRegularFile();
        assertThat(Files.readString(bundle.resolve("bundle.Dockerfile"))).contains("COPY manifests /manifests/");
        BundleValidationTest.Run run = BundleValidationTest.validate(bundle);
        System.out.print(run.output());
        assertThat(run.output()).doesNotContain("ERROR").contains(": 0 errors");
        assertThat(run.exit()).isZero();
    }

    @Test
    void theSumsMatchTheArtefacts() throws Exception {
        List<String> lines = Files.readAllLines(built.sums(), StandardCharsets.UTF_8);
        assertThat(lines).hasSize(4);
        for (Path file : List.of(built.chart(), built.image(), built.cli(), built.bundle())) {
            assertThat(lines).contains(ImageIndex.sha256(file) + "  " + file.getFileName());
        }
    }

    private static JsonNode blob(String digest) throws Exception {
        byte[] bytes = image.get(ImageIndex.blob(digest));
        assertThat(bytes).as("blob %s in the archive", digest).isNotNull();
        return JSON.readTree(bytes);
    }

    private static long countBlobs() throws Exception {
        List<String> names = new ArrayList<>();
        try (var in = Files.newInputStream(built.image());
                var tar = new org.apache.commons.compress.archivers.tar.TarArchiveInputStream(in)) {
            for (var entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                names.add(entry.getName());
            }
        }
        assertThat(names).doesNotHaveDuplicates();
        return names.stream().filter(n -> n.startsWith("blobs/")).count();
    }

    private static JsonNode manifestOf(String architecture) throws Exception {
        for (JsonNode entry : platforms.path("manifests")) {
            if (entry.path("platform").path("architecture").asText().equals(architecture)) {
                return blob(entry.path("digest").asText());
            }
        }
        throw new AssertionError("no " + architecture + " image in " + platforms);
    }

    private static JsonNode configOf(String architecture) throws Exception {
        return blob(manifestOf(architecture).path("config").path("digest").asText());
    }

    /** The image's layers in order, unpacked into one folder (they are gzip tarballs in the archive). */
    private static Path unpack(String architecture) throws Exception {
        Path blobs = Files.createDirectories(work.resolve("blobs-" + architecture));
        Chroot.exec(List.of("tar", "-xf", built.image().toString(), "-C", blobs.toString()), Map.of(), 300);
        Path rootfs = Files.createDirectories(work.resolve("rootfs-" + architecture));
        for (JsonNode layer : manifestOf(architecture).path("layers")) {
            Path file = blobs.resolve(ImageIndex.blob(layer.path("digest").asText()));
            Chroot.exec(List.of("tar", "-xzf", file.toString(), "-C", rootfs.toString()), Map.of(), 300);
        }
        return rootfs;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
