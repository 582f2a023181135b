package io.topobridge.core.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.GangView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The example cluster in small: two NVLink partitions of a split rack (9 trays of 4 GPUs each, as rack r05) under
 * one NVLink domain, a smaller rack of 8 trays under another leaf, one spine.
 */
class ExplainTest {

    private static Cluster cluster() {
        Cluster c = new Cluster();
        String[] a = new String[9];
        String[] b = new String[9];
        String[] r = new String[8];
        for (int i = 0; i < 9; i++) {
            a[i] = "r05-a" + i;
            b[i] = "r05-b" + i;
        }
        for (int i = 0; i < 8; i++) {
            r[i] = "r01-" + i;
        }
        c.nodes(4, a).nodes(4, b).nodes(4, r).nodes(0, "cpu-1");
        c.leaf("nvlink-r05-1", "nvlink", a).leaf("nvlink-r05-2", "nvlink", b).leaf("nvlink-r01", "nvlink", r);
        c.above("domain-r05", 2, "nvlink-domain", "nvlink-r05-1", "nvlink-r05-2");
        c.above("domain-r01", 2, "nvlink-domain", "nvlink-r01");
        c.above("leaf-1", 3, "leaf", "domain-r05").above("leaf-2", 3, "leaf", "domain-r01");
        c.above("spine", 4, "spine", "leaf-1", "leaf-2");
        return c;
    }

    private static Cluster pendingGang(Cluster c, String gang, int pods) {
        for (int i = 0; i < pods; i++) {
            c.pod(gang + "-" + i, null, 4, gang, null, Map.of());
        }
        return c;
    }

    @Test
    void tenTraysNeedMoreThanAnyPartitionAndFitTheDomainAbove() {
        Cluster c = pendingGang(cluster(), "too-big", 10);
        Explanation e = Explain.of(c.gang("too-big", "hard", 1, List.of()), c.capacity());
        assertThat(e.pending()).isTrue();
        // no partition holds ten trays even empty: it can never start there, as the bridge says when it refuses it
        assertThat(e.reason()).isEqualTo(PendingReason.GANG_EXCEEDS_DOMAIN);
        assertThat(e.reason().reason()).isEqualTo("GangExceedsDomain");
        assertThat(e.sentence())
                .isEqualTo("needs 40 GPUs within one domain of its hard tier 1 (nvlink), more than any domain of that"
                        + " tier holds even empty: the largest, nvlink-r05-1, holds 36 GPUs; tier 2 (nvlink-domain)"
                        + " would hold it: it could never start (raise the tier, make it soft or the gang smaller)");
        assertThat(e.tiers())
                .extracting(t -> t.tier() + ":" + t.domainsThatFit() + "/" + t.domains() + ":" + t.allowed())
                .containsExactly("1:0/3:true", "2:1/2:false", "3:1/2:false", "4:1/1:false");
    }

    @Test
    void busyNodesCountAgainstTheirDomain() {
        Cluster c = cluster();
        // another gang holds 2 trays of partition 1 and all of rack r01
        c.pod("other-0", "r05-a0", 4, "other", null, Map.of()).pod("other-1", "r05-a1", 4, "other", null, Map.of());
        for (int i = 0; i < 8; i++) {
            c.pod("big-" + i, "r01-" + i, 4, "big", null, Map.of());
        }
        pendingGang(c, "nine", 9);
        Explanation e = Explain.of(c.gang("nine", "hard", 1, List.of()), c.capacity());
        assertThat(e.reason()).isEqualTo(PendingReason.WAITING_FOR_SCHEDULER);
        assertThat(e.sentence())
                .startsWith("needs 36 nvidia.com/gpu within one tier-1 domain (nvlink); 1 of 3 have room,"
                        + " the best nvlink-r05-2 with 36 free");
    }

    private static String[] partition(String p) {
        String[] out = new String[9];
        for (int i = 0; i < 9; i++) {
            out[i] = "r05-" + p + i;
        }
        return out;
    }

    /** Both partitions of r05 cordoned: the nine trays fit nowhere, and the sentence says what is missing. */
    @Test
    void cordonedNodesAreNoRoomAndTheSentenceSaysSo() {
        Cluster c = pendingGang(cluster(), "nine", 9);
        c.state(new io.topobridge.core.node.NodeState(true, "True", List.of()), partition("a"));
        c.state(new io.topobridge.core.node.NodeState(true, "True", List.of()), partition("b"));
        Explanation e = Explain.of(c.gang("nine", "hard", 1, List.of()), c.capacity());
        assertThat(e.reason()).isEqualTo(PendingReason.INSUFFICIENT_CAPACITY);
        assertThat(e.sentence())
                .isEqualTo("needs 36 nvidia.com/gpu within one tier-1 domain (nvlink); the best has 32 free"
                        + " (nvlink-r01); 2 more would but for 18 cordoned nodes; no domain at any tier has room (the"
                        + " whole cluster has 32 free (not counting 18 cordoned nodes))");
        assertThat(e.tiers().get(0).domainsThatFit()).isZero();
    }

    /** One partition not ready: the other still has room, and the nodes of the first are not counted. */
    @Test
    void notReadyNodesAreNoRoom() {
        Cluster c = pendingGang(cluster(), "nine", 9);
        c.state(new io.topobridge.core.node.NodeState(false, "Unknown", List.of()), partition("a"));
        Explanation e = Explain.of(c.gang("nine", "hard", 1, List.of()), c.capacity());
        assertThat(e.reason()).isEqualTo(PendingReason.WAITING_FOR_SCHEDULER);
        assertThat(e.sentence())
                .startsWith("needs 36 nvidia.com/gpu within one tier-1 domain (nvlink); 1 of 3 have room, the best"
                        + " nvlink-r05-2 with 36 free");
        assertThat(e.tiers().get(0).domainsThatFit()).isEqualTo(1);
    }

    /** A taint the gang's pods tolerate leaves the room; one they do not takes it, and is named. */
    @Test
    void taintsCountForThePodsThatDoNotTolerateThem() {
        var taint = new io.topobridge.core.node.Taint("maintenance", "true", "NoSchedule");
        var tainted = new io.topobridge.core.node.NodeState(false, "True", List.of(taint));
        Cluster c = cluster();
        c.state(tainted, partition("a"));
        c.state(tainted, partition("b"));
        pendingGang(c, "nine", 9);
        Explanation refused = Explain.of(c.gang("nine", "hard", 1, List.of()), c.capacity());
        assertThat(refused.sentence())
                .contains("2 more would but for 18 nodes with a taint the gang does not tolerate"
                        + " (maintenance=true:NoSchedule)");

        Cluster tolerating = cluster();
        tolerating.state(tainted, partition("a"));
        tolerating.state(tainted, partition("b"));
        for (int i = 0; i < 9; i++) {
            tolerating.pods.add(Cluster.podView(
                    "ns",
                    "nine-" + i,
                    null,
                    Cluster.amounts(4, 1, 8),
                    Map.of(),
                    null,
                    "nine",
                    List.of(new io.topobridge.core.node.Toleration("maintenance", "Exists", null, null))));
        }
        Explanation placed = Explain.of(tolerating.gang("nine", "hard", 1, List.of()), tolerating.capacity());
        assertThat(placed.reason()).isEqualTo(PendingReason.WAITING_FOR_SCHEDULER);
        assertThat(placed.tiers().get(0).domainsThatFit()).isEqualTo(2);
    }

    @Test
    void aGangLargerThanTheClusterSaysSo() {
        Cluster c = pendingGang(cluster(), "huge", 30);
        Explanation e = Explain.of(c.gang("huge", "hard", 2, List.of()), c.capacity());
        assertThat(e.reason()).isEqualTo(PendingReason.INSUFFICIENT_CAPACITY);
        assertThat(e.sentence())
                .isEqualTo("needs 120 nvidia.com/gpu within one tier-2 domain (nvlink-domain); the best has"
                        + " 72 free (domain-r05); no domain at any tier has room (the whole cluster has 104 free)");
    }

    @Test
    void freeGpusSpreadOneByNodeDoNotHoldAFourGpuPod() {
        Cluster c = new Cluster().nodes(4, "n1", "n2").leaf("p", "nvlink", "n1", "n2");
        c.pod("x", "n1", 3, "x", null, Map.of()).pod("y", "n2", 3, "y", null, Map.of());
        c.pod("w-0", null, 2, "w", null, Map.of());
        Explanation e = Explain.of(c.gang("w", "hard", 1, List.of()), c.capacity());
        assertThat(e.tiers().get(0).domainsThatFit()).isZero();
        assertThat(e.sentence())
                .startsWith("needs 2 nvidia.com/gpu within one tier-1 domain (nvlink); the best has 2 free (p)");
    }

    @Test
    void aSoftGangIsJudgedAgainstTheWholeCluster() {
        Cluster c = pendingGang(cluster(), "soft", 10);
        Explanation e = Explain.of(c.gang("soft", "soft", 1, List.of()), c.capacity());
        assertThat(e.reason()).isEqualTo(PendingReason.WAITING_FOR_SCHEDULER);
        assertThat(e.sentence())
                .isEqualTo("needs 40 nvidia.com/gpu; the cluster has 104 free, enough; waiting for Volcano");
    }

    @Test
    void missingPodsComeFirst() {
        Cluster c = pendingGang(cluster(), "few", 2);
        GangView g = c.gang("few", "hard", 1, List.of());
        GangView wantsFour = copy(g, 4, g.chosenTier(), g.draDevices());
        Explanation e = Explain.of(wantsFour, c.capacity());
        assertThat(e.reason()).isEqualTo(PendingReason.PODS_MISSING);
        assertThat(e.sentence()).startsWith("waits for its pods: 2 of 4 exist; ");
    }

    @Test
    void theAutoTierSentenceIsPartOfTheExplanation() {
        Cluster c = pendingGang(cluster(), "few", 2);
        GangView g = c.gang("few", "hard", 1, List.of());
        assertThat(Explain.of(g, c.capacity()).chosenTier()).isNull();
        String why = "1 (nvlink): 8 GPUs fit in 3 of 3 nvlink domains";
        GangView chosen = copy(g, g.minMember(), why, g.draDevices());
        assertThat(Explain.of(chosen, c.capacity()).chosenTier()).isEqualTo(why);
    }

    @Test
    void aPlacedGangReportsWhereItIs() {
        Cluster c = cluster();
        for (int i = 0; i < 9; i++) {
            c.pod("tp-" + i, "r05-b" + i, 4, "tp", null, Map.of());
        }
        Explanation e = Explain.of(c.gang("tp", "hard", 1, List.of()), c.capacity());
        assertThat(e.pending()).isFalse();
        assertThat(e.achieved().gang().value()).isEqualTo("1");
        assertThat(e.sentence())
                .isEqualTo("placed: all 9 pods within tier 1 (nvlink) in nvlink-r05-2 (asked for tier 1 or"
                        + " below, hard)");
    }

    @Test
    void aPlacedGangNamesTheNodesOfItsDomainThatTakeNoNewPods() {
        Cluster c = cluster();
        for (int i = 0; i < 8; i++) {
            c.pod("tp-" + i, "r05-b" + i, 4, "tp", null, Map.of());
        }
        c.state(new io.topobridge.core.node.NodeState(true, "True", List.of()), "r05-b8");
        Explanation e = Explain.of(c.gang("tp", "hard", 1, List.of()), c.capacity());
        assertThat(e.pending()).isFalse();
        assertThat(e.domain().verdict()).isEqualTo(GangDomain.Verdict.HOLDS);
        assertThat(e.sentence())
                .isEqualTo("placed: all 8 pods within tier 1 (nvlink) in nvlink-r05-2 (asked for tier 1 or below,"
                        + " hard); no new pods on r05-b8 (cordoned) in nvlink-r05-2");
    }

    @Test
    void aRunningGangWhosePartitionLostANodeIsExplainedByItsDomainNotByTheCluster() {
        Cluster c = cluster();
        // nine trays filled partition 2; its last node went down, and the replacement of its pod waits
        for (int i = 0; i < 8; i++) {
            c.pod("tp-" + i, "r05-b" + i, 4, "tp", null, Map.of());
        }
        c.pod("tp-9", null, 4, "tp", null, Map.of());
        c.state(new io.topobridge.core.node.NodeState(false, "Unknown", List.of()), "r05-b8");
        Explanation e = Explain.of(c.gang("tp", "hard", 1, List.of()), c.capacity());
        assertThat(e.pending()).isTrue();
        assertThat(e.reason()).isEqualTo(PendingReason.DOMAIN_LOST);
        assertThat(e.domain().domain()).isEqualTo("nvlink-r05-2");
        assertThat(e.domain().unusable()).containsExactly("r05-b8 (Ready=Unknown)");
        // before, the gang was judged as if placed afresh: partition 1 has room for nine trays
        assertThat(e.sentence())
                .startsWith("runs short of pods: nvlink-r05-2 (tier 1, nvlink) can no longer hold the gang: its 9 pods"
                        + " do not fit its usable nodes even when they are empty");
    }

    @Test
    void devicesClaimedThroughDraAddToTheNeed() {
        Cluster c = pendingGang(cluster(), "soft", 10);
        GangView g = c.gang("soft", "soft", 1, List.of());
        GangView claiming = copy(g, g.minMember(), g.chosenTier(), Amounts.parse(Map.of("nvidia.com/gpu", "8")));
        assertThat(Explain.of(claiming, c.capacity()).sentence())
                .isEqualTo("needs 48 nvidia.com/gpu; the cluster has 104 free, enough; waiting for Volcano");
    }

    /** The gang with another size, auto-tier sentence and DRA devices. */
    private static GangView copy(GangView g, int minMember, String chosenTier, Amounts draDevices) {
        return new GangView(
                g.namespace(),
                g.podGroup(),
                g.workload(),
                g.phase(),
                minMember,
                g.minResources(),
                g.mode(),
                g.highestTier(),
                g.subGroups(),
                g.conditions(),
                g.created(),
                g.pods(),
                chosenTier,
                draDevices);
    }
}
