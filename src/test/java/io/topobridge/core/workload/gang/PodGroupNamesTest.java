package io.topobridge.core.workload.gang;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.topology.HyperNodeNames;
import java.util.HashMap;
import java.util.List;
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

    @Test
    void hashIdentityGroupsAreNamedAfterTheLwsAndTheirGroupKey() {
        String key = "3f786850e387550fdab836ed7e6dc881de23001b";
        assertThat(PodGroupNames.leaderWorkerSetGroup("vllm", key)).isEqualTo("tb-lwsh-vllm-" + key);
        // a long LWS name is cut and hashed, the key kept whole
        String longName = PodGroupNames.leaderWorkerSetGroup("deepseek-r1-decode-" + "x".repeat(60), key);
        assertThat(longName)
                .hasSize(63)
                .matches(DNS_LABEL)
                .startsWith("tb-lwsh-")
                .endsWith("-" + key);
        // a key set by hand (LWS keeps one a pod template gives) that is no plain key: hashed, after a double dash
        for (String odd : List.of("Group.A", "g_1", "k".repeat(41), "A".repeat(63))) {
            String name = PodGroupNames.leaderWorkerSetGroup("vllm", odd);
            assertThat(name)
                    .as(odd)
                    .matches(DNS_LABEL)
                    .hasSizeLessThanOrEqualTo(63)
                    .matches("tb-lwsh-vllm--[0-9a-f]{8}");
        }
        assertThat(PodGroupNames.leaderWorkerSetGroup("vllm", "Group.A"))
                .isNotEqualTo(PodGroupNames.leaderWorkerSetGroup("vllm", "group-a"));
    }

    @Test
    void aNameThatLooksHashedNoLongerEqualsTheChangedNameItCopies() {
        String dotted = PodGroupNames.deployment("web.prod");
        String copy = dotted.substring("tb-deploy-".length());
        assertThat(PodGroupNames.deployment(copy)).isNotEqualTo(dotted).matches(DNS_LABEL);
    }

    /**
     * Names as a tenant might choose them to take another gang's PodGroup: random names of every kind, each also fed
     * back as the name of a workload of the same kind with the bridge's prefix stripped (the copy of a changed name),
     * with and without the index suffixes; no two different inputs give one PodGroup name.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {21, 34, 55, 89})
    void namesAreInjectiveEvenForNamesCopiedFromOtherPodGroups(long seed) {
        var random = new Random(seed);
        String alphabet = "abef0189-.";
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            int length = 1 + random.nextInt(random.nextInt(4) == 0 ? 70 : 14);
            var raw = new StringBuilder("a");
            for (int j = 1; j < length; j++) {
                raw.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            if (random.nextBoolean()) {
                raw.append('-').append(HyperNodeNames.hash(raw.toString(), 8));
            }
            String input = raw.toString();
            int index = random.nextInt(12);
            Map<String, String> names = new java.util.LinkedHashMap<>();
            names.put("deploy " + input, PodGroupNames.deployment(input));
            names.put("sts " + input, PodGroupNames.statefulSet(input));
            names.put("group " + input, PodGroupNames.group(input));
            names.put("rs " + input, PodGroupNames.roleSet(input));
            names.put("ps " + input, PodGroupNames.podSet(input));
            names.put("lws " + input + "#" + index, PodGroupNames.leaderWorkerSet(input, index));
            String lws = PodGroupNames.leaderWorkerSet(input, index);
            names.put("ds " + input + "#" + index, PodGroupNames.disaggregatedSet(input, index));
            // Hash-identity groups: LWS's own 40-hex keys, short plain keys (an index-like key too), keys set by hand
            // that are no plain key, and keys copied from the tail of another group's name
            String hexKey = HyperNodeNames.hash(input, 8)
                    + HyperNodeNames.hash(input + "1", 8)
                    + HyperNodeNames.hash(input + "2", 8)
                    + HyperNodeNames.hash(input + "3", 8)
                    + HyperNodeNames.hash(input + "4", 8);
            String oddKey = random.nextBoolean() ? input.toUpperCase() : input + "_" + index;
            names.put("lwsh " + input + "#" + hexKey, PodGroupNames.leaderWorkerSetGroup(input, hexKey));
            names.put("lwsh " + input + "#" + index, PodGroupNames.leaderWorkerSetGroup(input, String.valueOf(index)));
            names.put("lwsh " + input + "#" + oddKey, PodGroupNames.leaderWorkerSetGroup(input, oddKey));
            String hashed = PodGroupNames.leaderWorkerSetGroup(input, oddKey);
            String copiedKey = hashed.substring(hashed.lastIndexOf('-') + 1);
            names.put("lwsh " + input + "#" + copiedKey, PodGroupNames.leaderWorkerSetGroup(input, copiedKey));
            String lwsTail = lws.substring(7);
            names.put(
                    "lwsh " + lwsTail.substring(0, Math.max(1, lwsTail.lastIndexOf('-'))) + "#" + index,
                    PodGroupNames.leaderWorkerSetGroup(
                            lwsTail.substring(0, Math.max(1, lwsTail.lastIndexOf('-'))), String.valueOf(index)));
            // the copy: a workload named after the tail of another's changed PodGroup name
            String deploy = PodGroupNames.deployment(input);
            names.put("deploy " + deploy.substring(10), PodGroupNames.deployment(deploy.substring(10)));
            String tail = lws.substring(7, lws.lastIndexOf('-'));
            names.put("lws " + tail + "#" + index, PodGroupNames.leaderWorkerSet(tail, index));
            names.forEach((key, name) -> {
                assertThat(name).as("seed %d %s", seed, key).matches(DNS_LABEL).hasSizeLessThanOrEqualTo(63);
                String previous = seen.putIfAbsent(name, key);
                assertThat(previous == null || previous.equals(key))
                        .as("seed %d: %s and %s both give %s", seed, previous, key, name)
                        .isTrue();
            });
        }
    }
}
