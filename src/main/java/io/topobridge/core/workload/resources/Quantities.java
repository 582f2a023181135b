package io.topobridge.core.workload.resources;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Kubernetes quantities as exact decimals, and back to the canonical string form Kubernetes itself prints:
 * binary suffixes ({@code Ki…Ei}) for amounts first written with one (1024 and above, whole), otherwise
 * the largest decimal suffix ({@code n u m "" k M G T P E}) that keeps the mantissa whole, never a fraction.
 */
public final class Quantities {

    private static final String[] DECIMAL_SUFFIXES = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigDecimal NANO = new BigDecimal("1e-9");
    private static final BigDecimal KIBI = BigDecimal.valueOf(1024);

    private Quantities() {
    }

    /** The exact amount of a quantity in base units. */
    public static BigDecimal amount(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity);
    }

    /** Whether the quantity was written with a binary suffix ({@code Ki}, {@code Mi}…). */
    public static boolean binary(Quantity quantity) {
        String format = quantity.getFormat();
        return format != null && format.length() == 2 && format.charAt(1) == 'i';
    }

    /** The canonical Kubernetes form of an amount. */
    public static String canonical(BigDecimal amount, boolean binary) {
        if (amount.signum() == 0) {
            return "0";
        }
        // Kubernetes keeps at most nano precision and rounds away from zero
        BigDecimal value = amount.divide(NANO).setScale(0, amount.signum() > 0 ? RoundingMode.CEILING : RoundingMode.FLOOR)
                .multiply(NANO);
        if (binary && value.abs().compareTo(KIBI) >= 0 && isWhole(value)) {
            BigInteger whole = value.toBigIntegerExact();
            int power = 0;
            BigInteger kibi = BigInteger.valueOf(1024);
            while (power < BINARY_SUFFIXES.length - 1 && whole.mod(kibi).signum() == 0) {
                whole = whole.divide(kibi);
                power++;
            }
            return whole + BINARY_SUFFIXES[power];
        }
        for (int i = DECIMAL_SUFFIXES.length - 1; i >= 0; i--) {
            int exponent = (i - 3) * 3;
            BigDecimal mantissa = value.movePointLeft(exponent);
            if (isWhole(mantissa)) {
                return mantissa.toBigIntegerExact() + DECIMAL_SUFFIXES[i];
            }
        }
        throw new IllegalStateException("unreachable: " + amount);
    }

    private static boolean isWhole(BigDecimal value) {
        return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    }
}
