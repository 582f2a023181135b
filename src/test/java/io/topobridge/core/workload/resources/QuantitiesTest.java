package io.topobridge.core.workload.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Sums print the way Kubernetes prints quantities. */
class QuantitiesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "100m, 100m",
        "1500m, 1500m",
        "0.5, 500m",
        "2000, 2k",
        "16, 16",
        "1e3, 1k",
        "64Gi, 64Gi",
        "1536Mi, 1536Mi",
        "1024Mi, 1Gi",
        "512, 512",
        "0.1Gi, 107374182400m",
        "1Ki, 1Ki",
        "1000Ki, 1000Ki",
        "0, 0"
    })
    void canonicalForm(String input, String expected) {
        Quantity q = Quantity.parse(input);
        assertThat(Quantities.canonical(Quantities.amount(q), Quantities.binary(q)))
                .isEqualTo(expected);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 11, 99})
    void canonicalFormParsesBackToTheSameAmount(long seed) {
        var random = new Random(seed);
        String[] suffixes = {"", "m", "k", "M", "G", "Ki", "Mi", "Gi", "Ti"};
        for (int i = 0; i < 1000; i++) {
            String raw = random.nextInt(100000) + suffixes[random.nextInt(suffixes.length)];
            Quantity q = Quantity.parse(raw);
            BigDecimal amount = Quantities.amount(q);
            String printed = Quantities.canonical(amount, Quantities.binary(q));
            assertThat(Quantities.amount(Quantity.parse(printed)))
                    .as("seed %d %s -> %s", seed, raw, printed)
                    .isEqualByComparingTo(amount);
            assertThat(printed)
                    .as("seed %d %s", seed, raw)
                    .matches(
                            "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$");
        }
    }
}
