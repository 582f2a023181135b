package io.topobridge.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A Java runtime base image of any architecture Debian builds, assembled from Debian's own packages when no registry
 * is reachable (the tests, and a release made offline): {@code openjdk-17-jre-headless} with the C and C++ runtime
 * libraries and zlib it links against, as {@link LocalJavaBase} takes them from this machine for its own
 * architecture. The packages come from Debian's archive by their index's SHA-256, are kept in a cache folder, and
 * are unpacked with {@code dpkg-deb}; the image is one layer with {@code java} on {@code PATH}. {@link #emulator}
 * gives Debian's static user-mode QEMU, so a test can run another architecture's image on this machine.
 */
public final class DebianJavaBase {

    /** Debian's release whose packages make the base (the release this project's machines run). */
    public static final String RELEASE = "bookworm";

    private static final String ARCHIVE = "http://deb.debian.org/debian";
    private static final List<String> PACKAGES =
            List.of("libc6", "libgcc-s1", "libstdc++6", "zlib1g", "openjdk-17-jre-headless");
    /** Package files a runtime does not use. */
    private static final List<String> NOT_A_RUNTIME = List.of("usr/share/doc", "usr/share/man", "usr/share/lintian");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    private DebianJavaBase() {}

    /** A package file of the archive's index: where it lies and its SHA-256. */
    record Deb(String name, String filename, String sha256) {}

    /** Writes a Docker-format base image archive for {@code linux/architecture} named {@code name} to {@code tar}. */
    public static void write(String architecture, Path tar, String name, Path cache) throws Exception {
        Path rootfs = unpacked(architecture, PACKAGES, cache);
        String javaHome = "/usr/lib/jvm/java-17-openjdk-" + architecture;
        if (!Files.isRegularFile(rootfs.resolve(javaHome.substring(1)).resolve("bin/java"))) {
            throw new IllegalStateException(
                    "Debian's openjdk-17-jre-headless for " + architecture + " has no " + javaHome + "/bin/java");
        }
        Path layer = cache.resolve("debian-java-" + architecture + "-layer.tar");
        // GNU tar keeps the packages' symbolic links and modes, with fixed owners and times
        exec(List.of(
                "tar",
                "--numeric-owner",
                "--owner=0",
                "--group=0",
                "--sort=name",
                "--mtime=@1",
                "-C",
                rootfs.toString(),
                "-cf",
                layer.toString(),
                "."));
        ObjectNode config = JSON.createObjectNode();
        config.put("architecture", architecture);
        config.put("os", "linux");
        config.putObject("config")
                .putArray("Env")
                .add("PATH=" + javaHome + "/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
                .add("JAVA_HOME=" + javaHome);
        ObjectNode rootfsConfig = config.putObject("rootfs");
        rootfsConfig.put("type", "layers");
        rootfsConfig.putArray("diff_ids").add("sha256:" + sha256(layer));
        var manifest = JSON.createArrayNode().addObject();
        manifest.put("Config", "config.json");
        manifest.putArray("RepoTags").add(name);
        manifest.putArray("Layers").add("layer.tar");
        Files.createDirectories(tar.toAbsolutePath().getParent());
        try (OutputStream file = Files.newOutputStream(tar);
                TarArchiveOutputStream out = new TarArchiveOutputStream(file)) {
            out.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            add(
                    out,
                    "manifest.json",
                    JSON.writeValueAsBytes(JSON.createArrayNode().add(manifest)));
            add(out, "config.json", JSON.writeValueAsBytes(config));
            TarArchiveEntry entry = new TarArchiveEntry(layer.toFile(), "layer.tar");
            out.putArchiveEntry(entry);
            Files.copy(layer, out);
            out.closeArchiveEntry();
        }
        Files.delete(layer);
    }

    /**
     * Debian's static user-mode emulator for {@code architecture} on this machine ({@code qemu-aarch64-static} for
     * {@code arm64}), or empty when this machine is of that architecture.
     */
    public static Optional<Path> emulator(String architecture, Path cache) throws Exception {
        String host = hostArchitecture();
        if (host.equals(architecture)) {
            return Optional.empty();
        }
        String qemu = switch (architecture) {
            case "arm64" -> "aarch64";
            case "amd64" -> "x86_64";
            case "ppc64el" -> "ppc64le";
            default -> architecture;
        };
        Path binary = unpacked(host, List.of("qemu-user-static"), cache).resolve("usr/bin/qemu-" + qemu + "-static");
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("Debian's qemu-user-static has no " + binary.getFileName());
        }
        return Optional.of(binary);
    }

    /** This machine's architecture in Debian's words. */
    public static String hostArchitecture() {
        String arch = System.getProperty("os.arch");
        return switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch;
        };
    }

    /** The packages unpacked into one folder of the cache (once per set of package files). */
    private static Path unpacked(String architecture, List<String> packages, Path cache) throws Exception {
        List<Deb> debs = resolve(architecture, packages, cache);
        String key = sha256(debs.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 16);
        Path rootfs = cache.resolve("debian-rootfs-" + architecture + "-" + key);
        if (Files.isRegularFile(rootfs.resolve(".complete"))) {
            return rootfs;
        }
        Path partial = Files.createTempDirectory(cache, "debian-rootfs-");
        for (Deb deb : debs) {
            exec(List.of("dpkg-deb", "-x", download(deb, cache).toString(), partial.toString()));
        }
        for (String unused : NOT_A_RUNTIME) {
            exec(List.of("rm", "-rf", partial.resolve(unused).toString()));
        }
        // mount points a container runtime fills, and a writable /tmp
        for (String folder : List.of("proc", "dev", "sys", "etc")) {
            Files.createDirectories(partial.resolve(folder));
        }
        Files.createDirectories(partial.resolve("tmp"));
        exec(List.of("chmod", "1777", partial.resolve("tmp").toString()));
        exec(List.of("chmod", "0755", partial.toString()));
        exec(List.of("rm", "-rf", rootfs.toString()));
        Files.move(partial, rootfs, StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(rootfs.resolve(".complete"), debs.toString());
        return rootfs;
    }

    /** The packages' files and checksums from the archive's index for {@code architecture}. */
    static List<Deb> resolve(String architecture, List<String> packages, Path cache) throws Exception {
        Path index = cache.resolve("debian-" + RELEASE + "-" + architecture + "-Packages.gz");
        // the archive drops a package's file some time after a point release replaced it: a week-old index is renewed
        if (!Files.isRegularFile(index)
                || Files.getLastModifiedTime(index)
                        .toInstant()
                        .isBefore(java.time.Instant.now().minus(Duration.ofDays(7)))) {
            fetch(ARCHIVE + "/dists/" + RELEASE + "/main/binary-" + architecture + "/Packages.gz", index);
        }
        Map<String, Deb> found = new LinkedHashMap<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(index))) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String stanza : text.split("\n\n")) {
                Map<String, String> fields = new LinkedHashMap<>();
                for (String line : stanza.split("\n")) {
                    int colon = line.indexOf(": ");
                    if (colon > 0 && !line.startsWith(" ")) {
                        fields.put(line.substring(0, colon), line.substring(colon + 2));
                    }
                }
                String name = fields.get("Package");
                if (name != null && packages.contains(name) && !found.containsKey(name)) {
                    found.put(name, new Deb(name, fields.get("Filename"), fields.get("SHA256")));
                }
            }
        }
        List<Deb> debs = new ArrayList<>();
        for (String name : packages) {
            Deb deb = found.get(name);
            if (deb == null || deb.filename() == null || deb.sha256() == null) {
                throw new IllegalStateException("Debian " + RELEASE + "'s index for " + architecture + " (" + index
                        + ") lists no package " + name);
            }
            debs.add(deb);
        }
        return debs;
    }

    /** The package file, downloaded once and checked against the index's SHA-256. */
    private static Path download(Deb deb, Path cache) throws Exception {
        Path file = cache.resolve("debs")
                .resolve(Path.of(deb.filename()).getFileName().toString());
        if (Files.isRegularFile(file) && sha256(file).equals(deb.sha256())) {
            return file;
        }
        fetch(ARCHIVE + "/" + deb.filename(), file);
        String actual = sha256(file);
        if (!actual.equals(deb.sha256())) {
            Files.delete(file);
            throw new IllegalStateException(
                    deb.filename() + " has SHA-256 " + actual + ", the index says " + deb.sha256());
        }
        return file;
    }

    private static void fetch(String url, Path to) throws Exception {
        Files.createDirectories(to.toAbsolutePath().getParent());
        Path partial = to.resolveSibling(to.getFileName() + ".partial");
        HttpResponse<Path> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofMinutes(10))
                        .build(),
                HttpResponse.BodyHandlers.ofFile(partial));
        if (response.statusCode() != 200) {
            Files.deleteIfExists(partial);
            throw new IllegalStateException("GET " + url + " answered " + response.statusCode());
        }
        Files.move(partial, to, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void exec(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static void add(TarArchiveOutputStream tar, String path, byte[] bytes) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(path);
        entry.setSize(bytes.length);
        entry.setModTime(1000);
        tar.putArchiveEntry(entry);
        tar.write(bytes);
        tar.closeArchiveEntry();
    }

    private static String sha256(Path file) throws IOException {
        return ImageIndex.sha256(file);
    }

    private static String sha256(byte[] bytes) {
        return ImageIndex.sha256(bytes);
    }

    /** {@code ARCHITECTURE OUTPUT.tar [CACHE]}: writes the base (named {@code topobridge-debian-base:java-ARCH}). */
    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3) {
            throw new IllegalArgumentException("usage: DebianJavaBase ARCHITECTURE OUTPUT.tar [CACHE]");
        }
        Path tar = Path.of(args[1]).toAbsolutePath();
        Path cache = args.length > 2 ? Path.of(args[2]) : defaultCache();
        write(args[0], tar, "topobridge-debian-base:java-" + args[0], cache);
        System.out.printf("wrote %s (%d MiB)%n", tar, Files.size(tar) >> 20);
    }

    /** Where downloaded packages stay between builds: beside the real-cluster tier's binaries. */
    public static Path defaultCache() throws IOException {
        String configured = System.getenv("TOPOBRIDGE_E2E_CACHE");
        Path root = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "topobridge-e2e");
        return Files.createDirectories(root.resolve("debian"));
    }
}
