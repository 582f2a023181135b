package io.topobridge.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.model.ExactMatch;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSelector;
import io.topobridge.volcano.model.MemberSpec;
import io.topobridge.volcano.model.NetworkTopologySpec;
import io.topobridge.volcano.model.PodGroupSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one writer against the mock API server: applies only what changed, deletes only its own objects. */
class ApplierTest {

    private MockCluster cluster;
    private Applier applier;
    private RecentObjects recent;

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start().installVolcanoCrds();
        recent = new RecentObjects();
        applier = new Applier(cluster.client(), new SimpleMeterRegistry(), recent);
        RecordingDispatcher.of(cluster).clearLog();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private static HyperNode hyperNode(String name, int tier, Map<String, String> labels, String... nodes) {
        var hn = new HyperNode();
        hn.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(labels).build());
        var spec = new HyperNodeSpec().tier(tier).tierName("rack");
        for (String node : nodes) {
            spec.addMembersItem(new MemberSpec()
                    .type(MemberSpec.TypeEnum.NODE)
                    .selector(new MemberSelector().exactMatch(new ExactMatch().name(node))));
        }
        hn.setSpec(spec);
        return hn;
    }

    private HyperNode current(String name) {
        return cluster.client().resources(HyperNode.class).withName(name).get();
    }

    private int writes() {
        return RecordingDispatcher.of(cluster).writes("/hypernodes").size();
    }

    private int requests() {
        return RecordingDispatcher.of(cluster).requests().size();
    }

    @Test
    void createsOnceThenWritesNothingWhileUnchanged() {
        var labels = Map.of(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE);
        assertThat(applier.apply(hyperNode("rack-a", 1, labels, "n1", "n2"), null))
                .isEqualTo(Applier.Outcome.CREATED);
        assertThat(writes()).isEqualTo(1);
        assertThat(RecordingDispatcher.of(cluster).writes("/hypernodes").get(0).isApply())
                .isTrue();

        for (int i = 0; i < 3; i++) {
            assertThat(applier.apply(hyperNode("rack-a", 1, labels, "n1", "n2"), current("rack-a")))
                    .isEqualTo(Applier.Outcome.UNCHANGED);
        }
        assertThat(writes()).isEqualTo(1);
        assertThat(current("rack-a").getSpec().getMembers()).hasSize(2);
    }

    @Test
    void updatesChangedSpecAndDropsFieldsNoLongerWanted() {
        var labels = Map.of(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE, "extra", "x");
        applier.apply(hyperNode("rack-a", 1, labels, "n1"), null);
        var next =
                hyperNode("rack-a", 1, Map.of(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE), "n1", "n3");
        assertThat(applier.apply(next, current("rack-a"))).isEqualTo(Applier.Outcome.UPDATED);
        HyperNode after = current("rack-a");
        assertThat(after.getSpec().getMembers())
                .extracting(m -> m.getSelector().getExactMatch().getName())
                .containsExactly("n1", "n3");
        assertThat(after.getMetadata().getLabels()).doesNotContainKey("extra");
        assertThat(applier.apply(next, after)).isEqualTo(Applier.Outcome.UNCHANGED);
        assertThat(writes()).isEqualTo(2);
    }

    @Test
    void keepsOtherManagersFieldsAndReleasesOnlyOwn() {
        // another controller (say AIBrix) creates a PodGroup with a plain create
        var pg = new PodGroup();
        pg.setMetadata(new ObjectMetaBuilder()
                .withNamespace("ns")
                .withName("rs-0")
                .withLabels(Map.of("aibrix", "yes"))
                .build());
        pg.setSpec(new PodGroupSpec().minMember(4).queue("q1"));
        cluster.client().resource(pg).create();

        var topology = new PodGroup();
        topology.setMetadata(
                new ObjectMetaBuilder().withNamespace("ns").withName("rs-0").build());
        topology.setSpec(new PodGroupSpec()
                .networkTopology(new NetworkTopologySpec()
                        .mode(NetworkTopologySpec.ModeEnum.HARD)
                        .highestTierAllowed(2)));
        PodGroup current = cluster.client()
                .resources(PodGroup.class)
                .inNamespace("ns")
                .withName("rs-0")
                .get();
        assertThat(applier.apply(topology, current)).isEqualTo(Applier.Outcome.UPDATED);

        PodGroup merged = cluster.client()
                .resources(PodGroup.class)
                .inNamespace("ns")
                .withName("rs-0")
                .get();
        assertThat(merged.getSpec().getMinMember()).isEqualTo(4);
        assertThat(merged.getSpec().getQueue()).isEqualTo("q1");
        assertThat(merged.getSpec().getNetworkTopology().getHighestTierAllowed())
                .isEqualTo(2);
        assertThat(merged.getMetadata().getLabels()).containsEntry("aibrix", "yes");
        assertThat(applier.apply(topology, merged)).isEqualTo(Applier.Outcome.UNCHANGED);

        assertThat(applier.release(merged, PodGroup::new)).isTrue();
        PodGroup released = cluster.client()
                .resources(PodGroup.class)
                .inNamespace("ns")
                .withName("rs-0")
                .get();
        assertThat(released.getSpec().getNetworkTopology()).isNull();
        assertThat(released.getSpec().getMinMember()).isEqualTo(4);
        assertThat(applier.release(released, PodGroup::new)).isFalse();
    }

    /**
     * Another writer's change made just before the bridge's write can reach the cache after it: the cache then shows
     * a version older than the write, without it. The writer compares against its own write (no read, no second
     * write) until the cache shows that version or a later one.
     */
    @Test
    void aCacheBehindItsOwnWriteCostsNoSecondWriteAndNoRead() {
        var meters = new SimpleMeterRegistry();
        var checked = new Applier(cluster.client(), meters, new RecentObjects());
        var labels = Map.of(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE);
        checked.apply(hyperNode("rack-a", 1, labels, "n1"), null);
        HyperNode before = current("rack-a");
        var scaled = hyperNode("rack-a", 1, labels, "n1", "n2");
        assertThat(checked.apply(scaled, before)).isEqualTo(Applier.Outcome.UPDATED);
        int afterUpdate = writes();
        long written = Long.parseLong(current("rack-a").getMetadata().getResourceVersion());

        // what the cache shows: the object as before the write, at a version another writer made just before it
        HyperNode stale = current("rack-a");
        stale.getSpec().setMembers(before.getSpec().getMembers());
        stale.getMetadata().setResourceVersion(String.valueOf(written - 1));
        int requestsAfterUpdate = requests();
        assertThat(checked.apply(scaled, stale)).isEqualTo(Applier.Outcome.UNCHANGED);
        assertThat(checked.apply(scaled, stale)).isEqualTo(Applier.Outcome.UNCHANGED);
        assertThat(writes()).isEqualTo(afterUpdate);
        assertThat(requests()).as("no read of the live object").isEqualTo(requestsAfterUpdate);

        // the live object lost the write (deleted here) and the cache shows a later version without it
        cluster.client().resource(current("rack-a")).withGracePeriod(0).delete();
        stale.getMetadata().setResourceVersion(String.valueOf(written + 5));
        assertThat(checked.apply(scaled, stale)).isEqualTo(Applier.Outcome.UPDATED);
        assertThat(writes()).isEqualTo(afterUpdate + 2);
        assertThat(current("rack-a").getSpec().getMembers()).hasSize(2);
    }

    /** A delete is sent once while the cache still shows the object, and a creation is seen before the cache has it. */
    @Test
    void recentWritesAreSeenBeforeTheCacheShowsThem() {
        var labels = Map.of(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE);
        applier.apply(hyperNode("rack-b", 1, labels, "n1"), null);
        assertThat(recent.current("HyperNode", null, List.of(), HyperNode.class))
                .extracting(hn -> hn.getMetadata().getName())
                .contains("rack-b");
        HyperNode cached = current("rack-b");
        assertThat(applier.delete(cached, VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE))
                .isTrue();
        int afterDelete = writes();
        assertThat(applier.delete(cached, VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE))
                .isFalse();
        assertThat(recent.current("HyperNode", null, List.of(cached), HyperNode.class))
                .extracting(hn -> hn.getMetadata().getName())
                .doesNotContain("rack-b");
        assertThat(writes()).isEqualTo(afterDelete);
    }

    @Test
    void refusesToDeleteObjectsWithoutItsLabel() {
        var foreign = hyperNode("foreign", 1, Map.of(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, "label"), "n1");
        cluster.client().resource(foreign).create();
        assertThat(applier.delete(current("foreign"), VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE))
                .isFalse();
        assertThat(current("foreign")).isNotNull();

        applier.apply(
                hyperNode("ours", 1, Map.of(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE), "n1"), null);
        assertThat(applier.delete(current("ours"), VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE))
                .isTrue();
        assertThat(current("ours")).isNull();
    }

    @Test
    void customResourcesAnswerNotFoundWithoutTheirCrd() {
        try (var bare = RecordingDispatcher.start()) {
            var list = List.of(bare.client().resources(HyperNode.class));
            assertThat(list).hasSize(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> bare.client().resources(HyperNode.class).list())
                    .hasMessageContaining("404");
        }
    }
}
