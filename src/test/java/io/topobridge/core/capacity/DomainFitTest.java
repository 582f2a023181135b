package io.topobridge.core.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A need against the empty sizes of the domains of one tier: only a need no domain holds is answered. */
class DomainFitTest {

    private static Amounts gpus(int gpus, int cpu) {
        return new Amounts(Map.of(Amounts.GPU, BigDecimal.valueOf(gpus), "cpu", BigDecimal.valueOf(cpu)));
    }

    private static TierDomains.Domain open(String name, int gpus) {
        return Cluster.domain(name, gpus(gpus, 1000), gpus(gpus, 1000), Map.of());
    }

    /**
     * Tier 1 (nvlink): 72 and 64 GPUs, the second with 8 more on 2 cordoned nodes; tier 2 (leaf): both, 136 GPUs (144
     * with the cordoned ones); no tier 3.
     */
    private static final TierDomains DOMAINS = Cluster.domains(
            Map.of(
                    1,
                    List.of(
                            open("nvl-a", 72),
                            new TierDomains.Domain(
                                    "nvl-b",
                                    gpus(64, 1000),
                                    gpus(64, 1000),
                                    Map.of(),
                                    gpus(80, 1000),
                                    new Withheld(2, 0, 0, null),
                                    List.of())),
                    2,
                    List.of(new TierDomains.Domain(
                            "leaf-1",
                            gpus(136, 2000),
                            gpus(136, 2000),
                            Map.of(),
                            gpus(144, 2000),
                            new Withheld(2, 0, 0, null),
                            List.of()))),
            Map.of(1, "nvlink", 2, "leaf"));

    @Test
    void aNeedSomeDomainHoldsIsNotAnswered() {
        assertThat(DomainFit.exceeded(DOMAINS, gpus(72, 10), 1)).isEmpty();
    }

    @Test
    void aNeedNoDomainHoldsNamesTheLargestAndTheLowestTierThatWould() {
        DomainFit fit = DomainFit.exceeded(DOMAINS, gpus(76, 10), 1).orElseThrow();
        assertThat(fit.largest()).isEqualTo("nvl-a");
        assertThat(fit.needs()).as("only the resources short are said").isEqualTo("76 GPUs");
        assertThat(fit.sentence())
                .isEqualTo("more than any domain of that tier holds even empty: the largest, nvl-a, holds 72 GPUs"
                        + " (1 domain would hold it but for 2 cordoned nodes); tier 2 (leaf) would hold it");
        // 140 GPUs: no domain holds them, though the 144 of every node together would (cordoned ones counted)
        assertThat(DomainFit.exceeded(DOMAINS, gpus(140, 10), 1).orElseThrow().sentence())
                .endsWith("; no domain of any tier holds it");
        assertThat(DomainFit.exceeded(DOMAINS, gpus(150, 10), 1))
                .as("more than every node together: the cluster's shortfall")
                .isEmpty();
    }

    @Test
    void resourcesNoNodeOffersAndAnUnknownTierAreNotJudged() {
        Amounts dra = new Amounts(Map.of("example.com/fpga", BigDecimal.valueOf(9), "pods", BigDecimal.valueOf(999)));
        assertThat(DomainFit.exceeded(DOMAINS, dra, 1)).isEmpty();
        assertThat(DomainFit.exceeded(DOMAINS, gpus(500, 10), 3)).isEmpty();
        assertThat(DomainFit.exceeded(TierDomains.NONE, gpus(500, 10), 1)).isEmpty();
    }
}
