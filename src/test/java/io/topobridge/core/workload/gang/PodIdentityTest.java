package io.topobridge.core.workload.gang;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PodIdentityTest {

    @Test
    void aLaterPairReplacesAnEarlierOneAndANullValueLeavesTheFactAsItWas() {
        PodIdentity base = PodIdentity.of(PodIdentity.WORKLOAD, "LeaderWorkerSet/a", PodIdentity.GROUP_INDEX, "1");
        PodIdentity next =
                base.with(PodIdentity.GROUP_INDEX, "2", PodIdentity.LEADER, null, PodIdentity.GROUP_INDEX, "3");
        assertThat(next.facts())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(PodIdentity.WORKLOAD, "LeaderWorkerSet/a", PodIdentity.GROUP_INDEX, "3"));
        assertThat(base.with(PodIdentity.GROUP_INDEX, null).facts()).isEqualTo(base.facts());
    }

    /** The facts equal what putting each pair with a value into a copy of the facts, in turn, leaves. */
    @Test
    void randomPairsEndAsPuttingThemInTurnWould() {
        Random random = new Random(7);
        String[] keys = {"a", "b", "c", "d"};
        for (int run = 0; run < 20_000; run++) {
            Map<String, String> facts = new HashMap<>();
            for (int i = random.nextInt(4); i > 0; i--) {
                facts.put(keys[random.nextInt(keys.length)], "f" + random.nextInt(3));
            }
            String[] pairs = new String[2 * random.nextInt(5)];
            for (int i = 0; i < pairs.length; i += 2) {
                pairs[i] = keys[random.nextInt(keys.length)];
                pairs[i + 1] = random.nextInt(4) == 0 ? null : "v" + random.nextInt(3);
            }
            Map<String, String> expected = new HashMap<>(facts);
            for (int i = 0; i < pairs.length; i += 2) {
                if (pairs[i + 1] != null) {
                    expected.put(pairs[i], pairs[i + 1]);
                }
            }
            assertThat(new PodIdentity(facts).with(pairs).facts())
                    .as("facts %s with %s", facts, Arrays.toString(pairs))
                    .isEqualTo(expected);
        }
    }
}
