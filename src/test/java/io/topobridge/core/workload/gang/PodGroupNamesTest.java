package io.topobridge.core.workload.gang;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PodGroup names: readable when possible, always DNS-1123 labels, distinct for distinct inputs. */
class PodGroupNamesTest {

    private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

    @Test
    void readableNames() {
        assertThat(PodGroupNames.deployment("vllm-prefill")).isEqualTo("tb-deploy-vllm-prefill");
        assertThat(PodGroupNames.statefulSet("db")).isEqualTo("tb-sts-db");
        assertThat(PodGroupNames.group("pd")).isEqualTo("tb-group-pd");
        assertThat(PodGroupNames.leaderWorkerSet("lws-sample-volcano", 1)).isEqualTo("tb-lws-lws-sample-volcano-1");
        assertThat(PodGroupNames.disaggregatedSet("pd-disagg-vllm", 0)).isEqualTo("tb-ds-pd-disagg-vllm-0");
        assertThat(PodGroupNames.roleSet("tp-1p1d-roleset-x7k2p")).isEqualTo("tb-rs-tp-1p1d-roleset-x7k2p");
    }

    @Test
    void dottedAndLongNamesAreShortenedWithAHashAndKeepTheirIndex() {
        String dotted = PodGroupNames.deployment("model.v2");
        assertThat(dotted)
                .matches(DNS_LABEL)
                .startsWith("tb-deploy-model-v2-")
                .isNotEqualTo(PodGroupNames.deployment("model-v2"));
        String longName = PodGroupNames.leaderWorkerSet("a".repeat(80), 12);
        assertThat(longName).hasSize(63).matches(DNS_LABEL).endsWith("-12");
        assertThat(PodGroupNames.leaderWorkerSet("a".repeat(80), 12)).isEqualTo(longName);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {3, 5, 8, 13})
    void alwaysDnsLabelsAndNoCollisions(long seed) {
        var random = new Random(seed);
        String alphabet = "abcxyz019-.";
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            int length = 1 + random.nextInt(random.nextBoolean() ? 20 : 250);
            var raw = new StringBuilder();
            raw.append('a');
            for (int j = 1; j < length; j++) {
                raw.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String input = raw.toString();
            int group = random.nextInt(200);
            String name = PodGroupNames.leaderWorkerSet(input, group);
            assertThat(name)
                    .as("seed %d input %s", seed, input)
                    .matches(DNS_LABEL)
                    .hasSizeLessThanOrEqualTo(63)
                    .startsWith("tb-lws-")
                    .doesNotStartWith("podgroup-");
            String key = input + "#" + group;
            String previous = seen.put(name, key);
            assertThat(previous == null || previous.equals(key))
                    .as("seed %d: %s and %s both give %s", seed, previous, key, name)
                    .isTrue();
        }
    }
}
