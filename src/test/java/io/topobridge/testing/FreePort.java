package io.topobridge.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A currently free TCP port on this machine, chosen outside the kernel's ephemeral range.
 *
 * <p>A port the kernel hands out for {@code bind(0)} lies in the ephemeral range, and so does the local port of every
 * outgoing connection. Between the moment a test picks such a port and the moment a component listens on it, any
 * client connection on the machine (the API server's own, a second test run's) may take it as its source port, and the
 * component dies on "address already in use". Ports below the range (or above it) are never given to outgoing
 * connections, so only another listener can take them; each is handed out at most once per JVM.
 */
public final class FreePort {
    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;
    private static final int HIGHEST = 65_535;
    private static final Set<Integer> GIVEN = new HashSet<>();

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

    private static synchronized boolean claim(int port) {
        if (GIVEN.contains(port) || !bindable(port)) {
            return false;
        }
        GIVEN.add(port);
        return true;
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
