package io.topobridge.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** A currently free TCP port on this machine. */
public final class FreePort {
    private FreePort() {}

    public static int find() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
