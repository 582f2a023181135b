package io.topobridge.release;

import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import com.marcnuri.helm.Helm;
import io.topobridge.bundle.OlmBundle;
import io.topobridge.image.ContainerImage;
import io.topobridge.image.ImageIndex;
import io.topobridge.testing.Folders;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;

/**
 * The release build ({@code ./mvnw -B -Prelease package -Drevision=X.Y.Z} on a commit tagged {@code vX.Y.Z}): from
 * the packaged application and the chart it writes what a user installs, all named by the version the tag gives:
 *
 * <ul>
 *   <li>{@code topobridge-X.Y.Z.tgz}, the chart package, its {@code version} and {@code appVersion} the release's
 *       (so the image tag it runs is the release's too);
 *   <li>{@code topobridge-image-X.Y.Z.oci.tar}, one image for every platform asked for (linux/amd64 and linux/arm64),
 *       each built by {@link ContainerImage} on its platform's base and joined by {@link ImageIndex};
 *   <li>{@code topobridge-cli-X.Y.Z.tar.gz}, the CLI: the application folder with the kubectl plugin beside the jar;
 *   <li>{@code topobridge-olm-bundle-X.Y.Z.tar.gz}, the OLM bundle of the release's chart ({@link OlmBundle}): its
 *       ClusterServiceVersion {@code topobridge.vX.Y.Z} runs the release's image, and {@code bundle.Dockerfile} builds
 *       the bundle image a catalog lists;
 *   <li>{@code SHA256SUMS} of the four.
 * </ul>
 *
 * It refuses a development version, a version that is not HEAD's tag, and uncommitted changes.
 */
public final class Release {

    private static final Pattern SEMVER =
            Pattern.compile("(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?");

    /**
     * What to release.
     *
     * @param version the release's version ({@code X.Y.Z})
     * @param repository the git work tree whose HEAD must carry the tag {@code vX.Y.Z}; {@code null} skips that check
     *     (the tests build artefacts of a development version)
     * @param app the packaged application ({@code target/quarkus-app}, the kubectl plugin included)
     * @param chart the chart's folder
     * @param image the image's repository name ({@code topobridge} or {@code registry.example.com/ml/topobridge})
     * @param bases each platform ({@code linux/arm64}) and the base its image is built on
     * @param output the folder the artefacts go to
     * @param cache Jib's layer cache and the build's scratch folder
     */
    public record Spec(
            String version,
            Path repository,
            Path app,
            Path chart,
            String image,
            Map<String, String> bases,
            Path output,
            Path cache) {}

    /** What the build wrote. */
    public record Artefacts(Path chart, Path image, Path cli, Path bundle, Path sums) {}

    private Release() {}

    public static Artefacts build(Spec spec) throws Exception {
        if (spec.repository() != null) {
            checkVersion(spec.version(), spec.repository());
        }
        Files.createDirectories(spec.output());
        Path chart = chart(spec);
        Path image = image(spec);
        Path cli = cli(spec);
        Path bundle = bundle(spec);
        Path sums = spec.output().resolve("SHA256SUMS");
        StringBuilder lines = new StringBuilder();
        for (Path file : List.of(chart, image, cli, bundle)) {
            lines.append(ImageIndex.sha256(file))
                    .append("  ")
                    .append(file.getFileName())
                    .append('\n');
        }
        Files.writeString(sums, lines, StandardCharsets.UTF_8);
        return new Artefacts(chart, image, cli, bundle, sums);
    }

    /**
     * The tag rule: a release version ({@code X.Y.Z} or {@code X.Y.Z-rc.1}, not a SNAPSHOT) that HEAD carries as
     * {@code vX.Y.Z}, on a work tree without uncommitted changes; otherwise an error saying what to do.
     */
    static void checkVersion(String version, Path repository) throws Exception {
        List<String> tags = git(repository, "tag", "--points-at", "HEAD")
                .lines()
                .filter(t -> t.startsWith("v"))
                .toList();
        String hint = tags.isEmpty()
                ? "tag the commit first (git tag vX.Y.Z) and run ./mvnw -B -Prelease package -Drevision=X.Y.Z"
                : "HEAD is tagged " + tags.get(0) + ": run ./mvnw -B -Prelease package -Drevision="
                        + tags.get(0).substring(1);
        if (version.endsWith("-SNAPSHOT") || !SEMVER.matcher(version).matches()) {
            throw new IllegalStateException("topobridge release: version '" + version
                    + "' is not a release version (X.Y.Z, no SNAPSHOT); a release takes its version from its tag: "
                    + hint);
        }
        if (!tags.contains("v" + version)) {
            throw new IllegalStateException("topobridge release: HEAD is not tagged v" + version + " (its tags: "
                    + (tags.isEmpty() ? "none" : String.join(", ", tags)) + "); " + hint);
        }
        List<String> changed = git(repository, "status", "--porcelain", "--untracked-files=no")
                .lines()
                .toList();
        if (!changed.isEmpty()) {
            throw new IllegalStateException("topobridge release: the work tree has " + changed.size()
                    + " uncommitted change(s), e.g. '" + changed.get(0).trim() + "': a release is built from its tag's"
                    + " commit alone");
        }
    }

    /** The chart package, its version and appVersion set to the release's. */
    private static Path chart(Spec spec) throws Exception {
        Path copy = spec.cache().resolve("release-chart").resolve(spec.chart().getFileName());
        Folders.delete(copy.getParent());
        Folders.copy(spec.chart(), copy);
        Path chartYaml = copy.resolve("Chart.yaml");
        String text = Files.readString(chartYaml, StandardCharsets.UTF_8);
        String versioned = text.replaceFirst("(?m)^version:.*$", "version: " + spec.version())
                .replaceFirst("(?m)^appVersion:.*$", "appVersion: \"" + spec.version() + "\"");
        if (versioned.equals(text) && !text.contains("version: " + spec.version())) {
            throw new IllegalStateException(chartYaml + " has no version or appVersion line to set");
        }
        Files.writeString(chartYaml, versioned, StandardCharsets.UTF_8);
        var lint = new Helm(copy).lint().strict().call();
        if (lint.isFailed()) {
            throw new IllegalStateException(
                    "helm lint --strict of the release's chart failed: " + String.join("; ", lint.getMessages()));
        }
        new Helm(copy).packageIt().withDestination(spec.output()).call();
        Path packaged = spec.output().resolve(spec.chart().getFileName() + "-" + spec.version() + ".tgz");
        if (!Files.isRegularFile(packaged)) {
            throw new IllegalStateException("helm package wrote no " + packaged);
        }
        return packaged;
    }

    /** One image per platform, joined into one archive whose index lists them all. */
    private static Path image(Spec spec) throws Exception {
        String name = spec.image() + ":" + spec.version();
        List<Path> archives = new ArrayList<>();
        for (var base : spec.bases().entrySet()) {
            Path archive = spec.cache().resolve("release-image-" + base.getKey().replace('/', '-') + ".tar");
            ContainerImage.build(new ContainerImage.Spec(
                    spec.app(),
                    base.getValue(),
                    name,
                    spec.version(),
                    archive,
                    spec.cache(),
                    base.getKey(),
                    ImageFormat.OCI));
            archives.add(archive);
        }
        Path image = spec.output().resolve("topobridge-image-" + spec.version() + ".oci.tar");
        ImageIndex.write(archives, name, image);
        return image;
    }

    /**
     * The OLM bundle of the release's chart (the copy {@link #chart} versioned), under {@code topobridge-olm-bundle-X.Y.Z/};
     * the Volcano APIs it requires read from the {@code crds/} beside the chart's {@code helm/} folder.
     */
    private static Path bundle(Spec spec) throws Exception {
        Path chart = spec.cache().resolve("release-chart").resolve(spec.chart().getFileName());
        Path crds = spec.chart().toAbsolutePath().getParent().getParent().resolve("crds");
        Path bundle = spec.output().resolve("topobridge-olm-bundle-" + spec.version() + ".tar.gz");
        String top = "topobridge-olm-bundle-" + spec.version() + "/";
        try (OutputStream file = Files.newOutputStream(bundle);
                GzipCompressorOutputStream gzip = new GzipCompressorOutputStream(file);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gzip)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (var entry : OlmBundle.files(chart, crds, spec.image()).entrySet()) {
                byte[] bytes = entry.getValue().getBytes(StandardCharsets.UTF_8);
                add(tar, top + entry.getKey().toString().replace('\\', '/'), bytes.length, 0644);
                tar.write(bytes);
                tar.closeArchiveEntry();
            }
        }
        return bundle;
    }

    private static void add(TarArchiveOutputStream tar, String name, long size, int mode) throws Exception {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(size);
        entry.setMode(mode);
        entry.setModTime(1000);
        tar.putArchiveEntry(entry);
    }

    /** The CLI: the application folder under {@code topobridge-X.Y.Z/}, modes kept (the plugin is executable). */
    private static Path cli(Spec spec) throws Exception {
        if (!Files.isRegularFile(spec.app().resolve("kubectl-topobridge"))) {
            throw new IllegalStateException(spec.app() + " has no kubectl-topobridge: package the application first");
        }
        Path cli = spec.output().resolve("topobridge-cli-" + spec.version() + ".tar.gz");
        String top = "topobridge-" + spec.version() + "/";
        List<Path> files;
        try (Stream<Path> walk = Files.walk(spec.app())) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (OutputStream file = Files.newOutputStream(cli);
                GzipCompressorOutputStream gzip = new GzipCompressorOutputStream(file);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gzip)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Path source : files) {
                String relative = spec.app().relativize(source).toString().replace('\\', '/');
                add(
                        tar,
                        top + relative,
                        Files.size(source),
                        Files.getPosixFilePermissions(source).contains(PosixFilePermission.OWNER_EXECUTE)
                                ? 0755
                                : 0644);
                Files.copy(source, tar);
                tar.closeArchiveEntry();
            }
        }
        return cli;
    }

    private static String git(Path repository, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", repository.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("topobridge release: " + String.join(" ", command)
                    + " failed (a release is built from a git work tree): " + output.trim());
        }
        return output;
    }

    /**
     * {@code --version V --repository DIR --app DIR --chart DIR --image NAME --base OS/ARCH=REF... --output DIR
     * --cache DIR}; prints what it wrote.
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> bases = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value pairs, got " + args[i]);
            }
            if (args[i].equals("--base")) {
                String[] platform = args[i + 1].split("=", 2);
                if (platform.length != 2) {
                    throw new IllegalArgumentException("--base takes OS/ARCH=REF, got " + args[i + 1]);
                }
                bases.put(platform[0], platform[1]);
            } else {
                options.put(args[i].substring(2), args[i + 1]);
            }
        }
        for (String key : List.of("version", "repository", "app", "chart", "image", "output", "cache")) {
            if (!options.containsKey(key)) {
                throw new IllegalArgumentException("missing --" + key);
            }
        }
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("missing --base OS/ARCH=REF");
        }
        try {
            Artefacts built = build(new Spec(
                    options.get("version"),
                    Path.of(options.get("repository")),
                    Path.of(options.get("app")),
                    Path.of(options.get("chart")),
                    options.get("image"),
                    bases,
                    Path.of(options.get("output")),
                    Path.of(options.get("cache"))));
            for (Path file : List.of(built.chart(), built.image(), built.cli(), built.bundle(), built.sums())) {
                System.out.printf("[release] wrote %s (%d KiB)%n", file, Files.size(file) >> 10);
            }
        } catch (IllegalStateException refused) {
            System.err.println(refused.getMessage());
            System.exit(1);
        }
    }
}
