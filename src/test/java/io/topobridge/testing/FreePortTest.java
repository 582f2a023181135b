package io.topobridge.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void aPortThisJvmHandedOutIsNotHandedOutByAnotherWhileItLives() throws Exception {
        int held = FreePort.find();
        List<String> said = otherJvm(System.getProperty("java.io.tmpdir"), held);
        assertThat(said.get(0))
                .as("the other JVM took port %d, held here", held)
                .isEqualTo("false");
        assertThat(Integer.parseInt(said.get(1))).isNotEqualTo(held);
    }

    @Test
    void withoutAFolderToShareClaimsInTheBindCheckAloneDecides(@TempDir Path temp) throws Exception {
        Path notAFolder = Files.writeString(temp.resolve("file"), "");
        int held = FreePort.find();
        List<String> said = otherJvm(notAFolder.toString(), held);
        assertThat(said.get(0)).as("nothing listens on %d", held).isEqualTo("true");
        try (ServerSocket listener = new ServerSocket(Integer.parseInt(said.get(1)))) {
            assertThat(listener.isBound()).isTrue();
        }
    }

    /** What a second JVM, with {@code tmpdir} as its temporary directory, answered. */
    private static List<String> otherJvm(String tmpdir, int port) throws Exception {
        Process other = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Djava.io.tmpdir=" + tmpdir,
                        "-cp",
                        System.getProperty("java.class.path"),
                        OtherJvm.class.getName(),
                        String.valueOf(port))
                .redirectErrorStream(true)
                .start();
        assertThat(other.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> said = List.of(new String(other.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .trim()
                .split("\\s+"));
        assertThat(other.exitValue()).as("other JVM said %s", said).isZero();
        return said;
    }

    /** A second JVM: tries to take the port it is given, then takes any port; prints both answers. */
    static final class OtherJvm {
        public static void main(String[] args) {
            System.out.println(FreePort.claim(Integer.parseInt(args[0])) + " " + FreePort.find());
        }
    }
}
