package io.topobridge.image;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
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

/**
 * Runs an unpacked image's program as a container runtime would, for the image tests: under {@code chroot} into the
 * image's root folder as the image's user, in fresh mount and PID namespaces with {@code /proc} and {@code /dev}
 * mounted, with the image's environment alone. An emulator (Debian's static user-mode QEMU) runs another
 * architecture's program. Needs root on Linux; a test without it fails saying so, never skips.
 */
public final class Chroot {

    private Chroot() {}

    /**
     * Runs {@code command} (its first word resolved on the image's {@code PATH} when an emulator is given) inside
     * {@code rootfs} as {@code user} ({@code uid:gid}). With a {@code tmp} folder the root is a read-only bind of the
     * image's files with {@code tmp} at {@code /tmp}, as a pod with readOnlyRootFilesystem and an emptyDir there;
     * {@code null} leaves the root writable.
     */
    public static PackagedApp.Run run(
            Path rootfs, String user, Map<String, String> env, Optional<Path> emulator, Path tmp, List<String> command)
            throws Exception {
        List<String> inside = new ArrayList<>();
        if (emulator.isPresent()) {
            Path qemu = rootfs.resolve(emulator.get().getFileName().toString());
            if (!Files.exists(qemu)) {
                Files.copy(emulator.get(), qemu);
            }
            inside.add("/" + qemu.getFileName());
            inside.add(onPath(rootfs, env, command.get(0)));
            inside.addAll(command.subList(1, command.size()));
        } else {
            inside.addAll(command);
        }
        // a private mount namespace: these mounts vanish with the process
        String readOnly = tmp == null
                ? ""
                : "mount --bind \"$root\" \"$root\" && mount -o remount,bind,ro \"$root\" "
                        // not even root may write there now, let alone the process
                        + "&& if touch \"$root/write-probe\" 2>/dev/null; then echo 'the root is writable' >&2; exit 97; fi "
                        + "&& mount --bind \"$tmp\" \"$root/tmp\" && ";
        List<String> full = new ArrayList<>(List.of(
                tool("unshare"),
                "--mount",
                "--pid",
                "--fork",
                tool("sh"),
                "-c",
                "root=$1; user=$2; tmp=$3; shift 3; " + readOnly
                        + "mount -t proc proc \"$root/proc\" && mount --rbind /dev \"$root/dev\" "
                        + "&& exec chroot --userspec=\"$user\" \"$root\" \"$@\"",
                "sh",
                rootfs.toString(),
                user,
                tmp == null ? "" : tmp.toString()));
        full.addAll(inside);
        return exec(full, env, 300);
    }

    /** Runs a host command with {@code env} (empty: this process's) and fails the test when tar fails. */
    public static PackagedApp.Run exec(List<String> command, Map<String, String> env, int seconds) throws Exception {
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

    /** Fails (not skips) where chroot and namespaces are out of reach. */
    public static void requireRootOnLinux() throws Exception {
        if (!System.getProperty("os.name").startsWith("Linux")) {
            fail("the image tests run an image's own filesystem with chroot and need Linux; this is "
                    + System.getProperty("os.name"));
        }
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        if (!Integer.valueOf(0).equals(uid)) {
            fail("the image tests need root (chroot, mount and PID namespaces), as on CI and the team's machines; "
                    + "uid is " + uid);
        }
        for (String tool : List.of("unshare", "chroot", "mount", "sh", "tar", "ldd")) {
            tool(tool);
        }
    }

    /** A host tool's path, or the test fails naming the package. */
    public static String tool(String name) {
        Optional<Path> found = List.of(System.getenv()
                        .getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
                        .split(File.pathSeparator))
                .stream()
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
        return found.orElseThrow(() -> new AssertionError(
                        "the image tests need '" + name + "' (util-linux, coreutils, tar, libc-bin) on PATH"))
                .toString();
    }

    /** The environment an image's configuration sets ({@code config.Env}). */
    public static Map<String, String> env(JsonNode config) {
        Map<String, String> env = new TreeMap<>();
        for (JsonNode entry : config.path("config").path("Env")) {
            String[] kv = entry.asText().split("=", 2);
            env.put(kv[0], kv[1]);
        }
        return env;
    }

    /** The texts of a JSON array (an entrypoint). */
    public static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** {@code program} as the image's {@code PATH} finds it in {@code rootfs} (what a runtime's exec does). */
    private static String onPath(Path rootfs, Map<String, String> env, String program) {
        if (program.startsWith("/")) {
            return program;
        }
        for (String dir : env.getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = rootfs.resolve(dir.substring(1)).resolve(program);
            if (Files.exists(candidate)) {
                return dir + "/" + program;
            }
        }
        throw new AssertionError(program + " is not on the image's PATH " + env.get("PATH"));
    }
}
