package io.topobridge.core.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.time.Duration;
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

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "9223372036854775807, 9223372036854775807",
        "9.2e18, 9200000000000000000",
        "7Ei, 8070450532247928832",
        "1e-5, 0.00001",
        "1e-10000000, 0.000000001",
        "1e-999999999999, 0.000000001",
        "0.0000000001, 0.000000001",
        "-1e-12, -0.000000001",
        "0e99999999999, 0",
        "+5m, 0.005",
        ".5, 0.5",
        "5., 5"
    })
    void amountsAtTheEdgesOfWhatKubernetesRepresents(String input, String expected) {
        assertThat(Quantities.amount(input)).isEqualByComparingTo(new BigDecimal(expected));
    }

    /** Each of these once kept translation busy for minutes (a 10-million-digit decimal) or is no quantity at all. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1e10000000 | is beyond what Kubernetes represents",
                "1e999999999999 | is beyond what Kubernetes represents",
                "9223372036854775808 | is beyond what Kubernetes represents",
                "1e19 | is beyond what Kubernetes represents",
                "8Ei | is beyond what Kubernetes represents",
                "100000000000000000000Ki | is beyond what Kubernetes represents",
                "1e1.5 | is not a Kubernetes quantity",
                "1e | is not a Kubernetes quantity",
                "1 Gi | is not a Kubernetes quantity",
                "Gi | is not a Kubernetes quantity",
                "0x10 | is not a Kubernetes quantity",
                "1.2.3 | is not a Kubernetes quantity"
            })
    void absurdQuantitiesAreRefusedWithoutComputingThem(String input, String reason) {
        assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> assertThatThrownBy(() -> Quantities.amount(input))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(reason)
                        .hasMessageContaining("\"" + input + "\""));
    }

    @org.junit.jupiter.api.Test
    void aQuantityLongerThanAnyKubernetesPrintsIsRefusedWithABoundedQuote() {
        String digits = "1".repeat(1_000_000);
        assertThatThrownBy(() -> Quantities.amount(digits))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(1000000 chars) is longer than 64 characters")
                .hasMessageNotContaining("1".repeat(200));
    }
}
