package io.topobridge.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortTest {

    @Test
    void portsLieOutsideTheEphemeralRangeAreDistinctAndCanBeListenedOn() throws IOException {
        int[] ephemeral = FreePort.ephemeralRange();
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = FreePort.find();
            assertThat(port).isBetween(10_000, 65_535);
            assertThat(port >= ephemeral[0] && port <= ephemeral[1])
                    .as("port %d inside the ephemeral range %d-%d", port, ephemeral[0], ephemeral[1])
                    .isFalse();
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
        }
        int port = FreePort.find();
        try (ServerSocket listener = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(listener.getLocalPort()).isEqualTo(port);
        }
    }
}
