package io.topobridge.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A currently free TCP port on this machine, chosen outside the kernel's ephemeral range.
 *
 * <p>A port the kernel hands out for {@code bind(0)} lies in the ephemeral range, and so does the local port of every
 * outgoing connection. Between the moment a test picks such a port and the moment a component listens on it, any
 * client connection on the machine (the API server's own, a second test run's) may take it as its source port, and the
 * component dies on "address already in use". Ports below the range (or above it) are never given to outgoing
 * connections, so only another listener can take them.
 *
 * <p>Each port is handed out once per machine while the JVM that took it lives: the test forks (and a second build)
 * pick ports independently, and a port one of them picked is not yet listened on while its component starts, so a
 * bind check alone would let a second JVM take it too. A JVM holds a file lock per port it handed out, in a folder
 * under the temporary directory; the kernel drops the locks when the JVM exits, however it exits. Where that folder
 * cannot be written or its files locked, the bind check alone decides, as before.
 */
public final class FreePort {
    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;
    private static final int HIGHEST = 65_535;
    private static final Path CLAIMS =
            Path.of(System.getProperty("java.io.tmpdir"), "topobridge-ports-" + System.getProperty("user.name"));
    private static final Map<Integer, FileChannel> GIVEN = new HashMap<>();

    private FreePort() {}

    public static int find() {
        int[] ephemeral = ephemeralRange();
        int below = Math.max(0, ephemeral[0] - LOWEST);
        int above = Math.max(0, HIGHEST - ephemeral[1]);
        if (below + above == 0) {
            throw new IllegalStateException("no port outside the ephemeral range " + ephemeral[0] + "-" + ephemeral[1]);
        }
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int pick = ThreadLocalRandom.current().nextInt(below + above);
            int port = pick < below ? LOWEST + pick : ephemeral[1] + 1 + (pick - below);
            if (claim(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port outside the ephemeral range after 1000 attempts");
    }

    /** Takes {@code port} for this JVM if no JVM on the machine holds it and it can be listened on now. */
    static synchronized boolean claim(int port) {
        if (GIVEN.containsKey(port)) {
            return false;
        }
        FileChannel held;
        try {
            held = lock(port);
            if (held == null) {
                return false;
            }
        } catch (IOException e) {
            held = null; // no folder to share claims in (read-only, another user's): the bind check alone decides
        }
        if (!bindable(port)) {
            close(held);
            return false;
        }
        GIVEN.put(port, held);
        return true;
    }

    /** The channel holding {@code port}'s lock, or null when another JVM holds it. */
    private static FileChannel lock(int port) throws IOException {
        Files.createDirectories(CLAIMS);
        FileChannel channel =
                FileChannel.open(CLAIMS.resolve(port + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            if (channel.tryLock() != null) {
                return channel;
            }
            channel.close();
            return null;
        } catch (IOException e) {
            close(channel); // not lockable here: the caller lets the bind check alone decide
            throw e;
        }
    }

    private static void close(FileChannel channel) {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // nothing to undo: the kernel drops the lock when this JVM exits
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket any = new ServerSocket(port, 1)) {
            return any.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }

    /** The kernel's ephemeral port range; the Linux default when it cannot be read. */
    static int[] ephemeralRange() {
        try {
            String[] parts = Files.readString(RANGE).trim().split("\\s+");
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (IOException | RuntimeException e) {
            return new int[] {32_768, 60_999};
        }
    }
}
