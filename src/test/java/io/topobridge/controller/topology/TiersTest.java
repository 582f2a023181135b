package io.topobridge.controller.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.model.HyperNodeSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a replica's tiers come from: the HyperNodes the leader wrote, until it builds them itself. */
class TiersTest {

    private static HyperNode hyperNode(String name, int tier, String tierName) {
        var hn = new HyperNode();
        hn.setMetadata(new ObjectMetaBuilder().withName(name).build());
        hn.setSpec(new HyperNodeSpec().tier(tier).tierName(tierName));
        return hn;
    }

    @Test
    void theHyperNodesTiersFormTheCatalogAnAmbiguousNameIncluded() {
        TierCatalog catalog = Tiers.catalog(
                List.of(
                        hyperNode("a", 1, "nvlink"),
                        hyperNode("b", 1, "nvlink"),
                        hyperNode("c", 2, "leaf"),
                        hyperNode("d", 1, "leaf"),
                        hyperNode("e", 3, null)),
                List.of());
        assertThat(catalog.top()).isEqualTo(3);
        assertThat(catalog.number("nvlink")).contains(1);
        assertThat(catalog.numbers("leaf")).containsExactly(1, 2);
        assertThat(catalog.number("leaf")).isEmpty();
        assertThat(Tiers.catalog(List.of(), List.of())).isEqualTo(TierCatalog.EMPTY);
    }

    @Test
    void whatTheLeaderBuiltWinsOverWhatTheHyperNodesShowAndEitherSettlesTheTiers() {
        var tiers = new Tiers();
        List<TierCatalog> heard = new ArrayList<>();
        tiers.addListener(heard::add);
        TierCatalog observed = TierCatalog.of(List.of(new TierCatalog.Tier(1, "nvlink")), List.of());
        TierCatalog built =
                TierCatalog.of(List.of(new TierCatalog.Tier(1, "nvlink"), new TierCatalog.Tier(2, "leaf")), List.of());

        assertThat(tiers.settled()).isFalse();
        tiers.observe(observed, observed, false);
        assertThat(tiers.settled()).as("HyperNodes still being listed").isFalse();
        tiers.observe(observed, observed, true);
        assertThat(tiers.current()).isEqualTo(observed);
        assertThat(tiers.settled()).isTrue();
        tiers.publish(built);
        tiers.observe(observed, observed, true);
        assertThat(tiers.current()).isEqualTo(built);
        assertThat(heard).containsExactly(observed, built);
    }
}
