package io.topobridge.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Names from label values: readable, valid DNS labels of at most 63 characters, hashed when lossy. */
class HyperNodeNamesTest {

    static Stream<Arguments> readable() {
        return Stream.of(
                Arguments.of("plain value", "rack", "r1", "rack-r1", true),
                Arguments.of("value already carries the tier name", "spine", "spine-2", "spine-2", true),
                Arguments.of("value equal to the tier name", "leaf", "leaf", "leaf", true),
                Arguments.of("upper case", "leaf", "S-2C5EAB03", "leaf-s-2c5eab03", false),
                Arguments.of("underscores and dots", "rack", "Rack_Two.Upper", "rack-two-upper", false),
                Arguments.of("runs of odd characters collapse", "rack", "a__..b", "rack-a-b", false),
                Arguments.of("leading and trailing odd characters drop", "rack", "_x_", "rack-x", false),
                Arguments.of("nothing readable left", "rack", "___", "rack", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readable")
    void readablePart(String name, String tier, String value, String want, boolean lossless) {
        assertThat(HyperNodeNames.readable(tier, value)).isEqualTo(want);
        assertThat(HyperNodeNames.lossless(tier, value)).isEqualTo(lossless);
    }

    @Test
    void longValuesAreCutAndHashed() {
        String value = "v".repeat(63);
        String name = HyperNodeNames.withHash(HyperNodeNames.readable("network-block", value), "identity", 8);
        assertThat(name).hasSize(63).endsWith("-" + HyperNodeNames.hash("identity", 8));
        assertThat(HyperNodeNames.matchable(name)).isTrue();
        assertThat(HyperNodeNames.lossless("network-block", value)).isFalse();
    }

    @Test
    void hashIsStableAndDependsOnIdentityOnly() {
        assertThat(HyperNodeNames.hash("aws\nk=v", 8))
                .isEqualTo(HyperNodeNames.hash("aws\nk=v", 8))
                .hasSize(8);
        assertThat(HyperNodeNames.hash("aws\nk=v", 8)).isNotEqualTo(HyperNodeNames.hash("aws\nk=w", 8));
        assertThat(HyperNodeNames.hash("x", 16)).startsWith(HyperNodeNames.hash("x", 8));
    }

    static Stream<Arguments> matchable() {
        return Stream.of(
                Arguments.of("dns label", "gb200-r01-t01", true),
                Arguments.of("dns subdomain", "ip-10-0-0-1.ec2.internal", true),
                Arguments.of("ip address", "10.0.1.10", true),
                Arguments.of("upper case", "Node-1", false),
                Arguments.of("64 characters", "n".repeat(64), false),
                Arguments.of("63 characters", "n".repeat(63), true),
                Arguments.of("trailing dash", "node-", false),
                Arguments.of("leading dash", "-node", false),
                Arguments.of("dash before a dot", "a-.b", false),
                Arguments.of("dot before a dash", "a.-b", false),
                Arguments.of("double dot", "a..b", false),
                Arguments.of("underscore", "a_b", false),
                Arguments.of("empty", "", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matchable")
    void exactMatchNames(String name, String node, boolean want) {
        assertThat(HyperNodeNames.matchable(node)).isEqualTo(want);
    }

    /** Every text of up to 5 characters from a small alphabet is a DNS subdomain (a DNS label) exactly when Kubernetes' pattern says so. */
    @Test
    void dnsSubdomainAgreesWithKubernetesPattern() {
        Pattern kubernetes = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
        String alphabet = "az09-.A_/";
        List<String> texts = new ArrayList<>(List.of(""));
        for (int from = 0, length = 1; length <= 5; length++) {
            int to = texts.size();
            for (int t = from; t < to; t++) {
                for (char c : alphabet.toCharArray()) {
                    texts.add(texts.get(t) + c);
                }
            }
            from = to;
        }
        Pattern label = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
        assertThat(texts).hasSize(66_430).allSatisfy(text -> {
            assertThat(HyperNodeNames.dnsSubdomain(text))
                    .as("'%s'", text)
                    .isEqualTo(kubernetes.matcher(text).matches());
            assertThat(HyperNodeNames.dnsLabel(text))
                    .as("'%s'", text)
                    .isEqualTo(label.matcher(text).matches());
        });
    }

    /** Any label value, however odd, gives a valid member name (seeded, reproducible). */
    @ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3, 42, 20240501})
    void everyValueGivesAValidName(long seed) {
        Random random = new Random(seed);
        String alphabet = "abcXYZ019-_.é/ ";
        for (int i = 0; i < 2000; i++) {
            int length = random.nextInt(80);
            StringBuilder value = new StringBuilder();
            for (int c = 0; c < length; c++) {
                value.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String tier = random.nextBoolean() ? "leaf" : "network-block";
            String readable = HyperNodeNames.readable(tier, value.toString());
            String name = HyperNodeNames.lossless(tier, value.toString())
                    ? readable
                    : HyperNodeNames.withHash(readable, value.toString(), 8);
            assertThat(HyperNodeNames.matchable(name))
                    .as("seed %d value '%s' gave name '%s'", seed, value, name)
                    .isTrue();
        }
    }
}
