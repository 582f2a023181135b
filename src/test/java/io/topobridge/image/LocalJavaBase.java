package io.topobridge.image;

import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.FilePermissions;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Java runtime base image assembled on this machine, for tests that cannot pull one from a registry: the Java
 * runtime the tests run on (its {@code java.home}, symbolic links resolved, without the JDK's development parts)
 * plus the shared libraries its launcher and native libraries link against (as {@code ldd} resolves them, the
 * dynamic loader included), at the paths they have here. On the team's machines and CI that is Debian's
 * {@code openjdk-17-jre-headless} with {@code libc6}, {@code zlib1g}, {@code libstdc++6} and {@code libgcc-s1}.
 * Like the standard Java images it puts {@code java} on {@code PATH} and sets {@code JAVA_HOME}.
 */
public final class LocalJavaBase {

    /** JDK parts a runtime image does not carry. */
    private static final Set<String> NOT_A_RUNTIME =
            Set.of("jmods", "include", "man", "docs", "demo", "legal", "src.zip", "ct.sym");
    /** Native libraries for desktop use: kept in the image but not followed to their (X11, ALSA, font) libraries. */
    private static final Pattern DESKTOP_LIBRARY =
            Pattern.compile("lib(awt_xawt|splashscreen|jawt|atk-wrapper|jsound|fontmanager)\\.so");

    private static final Pattern LDD_PATH = Pattern.compile("(?:=>\\s*)?(/\\S+)\\s+\\(0x");

    private LocalJavaBase() {}

    /** Writes the base image archive {@code name} to {@code tar} from the runtime at {@code javaHome}. */
    public static void write(Path javaHome, Path tar, String name, Path cache) throws Exception {
        Path home = javaHome.toRealPath();
        AbsoluteUnixPath homeInImage = AbsoluteUnixPath.get(home.toString());
        FileEntriesLayer.Builder runtime = FileEntriesLayer.builder().setName("java-runtime");
        List<Path> elf = new ArrayList<>();
        try (Stream<Path> files = Files.walk(home, FileVisitOption.FOLLOW_LINKS)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path relative = home.relativize(file);
                if (file.equals(home) || excluded(relative) || !Files.isRegularFile(file)) {
                    continue;
                }
                runtime.addEntry(file, homeInImage.resolve(relative.toString()), permissions(file));
                String fileName = file.getFileName().toString();
                if ((relative.toString().equals("bin/java") || fileName.endsWith(".so"))
                        && !DESKTOP_LIBRARY.matcher(fileName).matches()) {
                    elf.add(file);
                }
            }
        }
        FileEntriesLayer.Builder system = FileEntriesLayer.builder().setName("system-libraries");
        for (String library : sharedLibraries(elf)) {
            Path source = Path.of(library);
            if (!source.startsWith(home)) {
                system.addEntry(source.toRealPath(), AbsoluteUnixPath.get(library), permissions(source.toRealPath()));
            }
        }
        // mount points a container runtime fills, and a writable /tmp; an empty folder stands in for each
        Path empty = Files.createDirectories(cache.resolve("empty-folder"));
        FileEntriesLayer.Builder folders = FileEntriesLayer.builder().setName("folders");
        folders.addEntry(empty, AbsoluteUnixPath.get("/tmp"), FilePermissions.fromOctalString("777"));
        for (String mountPoint : List.of("/proc", "/dev", "/sys", "/etc")) {
            folders.addEntry(empty, AbsoluteUnixPath.get(mountPoint), FilePermissions.DEFAULT_FOLDER_PERMISSIONS);
        }
        Jib.fromScratch()
                .setFormat(ImageFormat.Docker)
                .addFileEntriesLayer(folders.build())
                .addFileEntriesLayer(system.build())
                .addFileEntriesLayer(runtime.build())
                .setEnvironment(Map.of(
                        "PATH",
                        home.resolve("bin") + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                        "JAVA_HOME",
                        home.toString()))
                .containerize(Containerizer.to(TarImage.at(tar).named(name))
                        .setToolName("topobridge-test-base")
                        .setBaseImageLayersCache(cache.resolve("base"))
                        .setApplicationLayersCache(cache.resolve("application")));
    }

    /** {@code OUTPUT.tar [JAVA_HOME]}: writes the base archive (named {@code topobridge-local-base:java}) for {@code -Dimage.base=tar://OUTPUT.tar}. */
    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            throw new IllegalArgumentException("usage: LocalJavaBase OUTPUT.tar [JAVA_HOME]");
        }
        Path tar = Path.of(args[0]).toAbsolutePath();
        Path cache = Files.createTempDirectory("topobridge-base-cache");
        write(
                Path.of(args.length > 1 ? args[1] : System.getProperty("java.home")),
                tar,
                "topobridge-local-base:java",
                cache);
        System.out.printf("wrote %s (%d MiB)%n", tar, Files.size(tar) >> 20);
    }

    private static boolean excluded(Path relative) {
        for (Path part : relative) {
            if (NOT_A_RUNTIME.contains(part.toString())) {
                return true;
            }
        }
        // of the launchers, the runtime needs only java
        return relative.getNameCount() == 2
                && relative.getName(0).toString().equals("bin")
                && !relative.getName(1).toString().equals("java");
    }

    private static FilePermissions permissions(Path file) throws IOException {
        return FilePermissions.fromPosixFilePermissions(Files.getPosixFilePermissions(file));
    }

    /** Every shared library (and the dynamic loader) {@code ldd} resolves for {@code files}, by the path it found. */
    static Set<String> sharedLibraries(List<Path> files) throws IOException, InterruptedException {
        // the runtime's own libraries find each other (libjvm.so) once the JVM has loaded them, not through ldd
        Set<String> own = new TreeSet<>();
        files.forEach(f -> own.add(f.getFileName().toString()));
        Set<String> libraries = new TreeSet<>();
        for (Path file : files) {
            Process ldd = new ProcessBuilder("ldd", file.toString())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(ldd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!ldd.waitFor(30, TimeUnit.SECONDS) || ldd.exitValue() != 0) {
                throw new IllegalStateException("ldd " + file + " failed: " + output);
            }
            for (String line : output.split("\n")) {
                if (line.contains("not found") && !own.contains(line.strip().split("\\s+")[0])) {
                    throw new IllegalStateException(file + " needs a library this machine lacks: " + line.strip());
                }
                Matcher m = LDD_PATH.matcher(line);
                if (m.find()) {
                    libraries.add(m.group(1));
                }
            }
        }
        if (libraries.stream().noneMatch(l -> l.contains("ld-linux"))) {
            throw new IllegalStateException("ldd named no dynamic loader for " + files);
        }
        return libraries;
    }
}
