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
    private static final BigDecimal KIBI = BigDecimal.valueOf(1024);

    private Quantities() {}

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
        BigDecimal value = amount.scale() <= 9
                ? amount
                : amount.setScale(9, amount.signum() > 0 ? RoundingMode.CEILING : RoundingMode.FLOOR);
        if (binary && value.abs().compareTo(KIBI) >= 0 && isWhole(value)) {
            BigInteger whole = value.toBigIntegerExact();
            int power = Math.min(BINARY_SUFFIXES.length - 1, whole.abs().getLowestSetBit() / 10);
            return whole.shiftRight(10 * power) + BINARY_SUFFIXES[power];
        }
        BigDecimal stripped = value.stripTrailingZeros();
        // value = unscaled * 10^-scale with no trailing zero in unscaled: the largest exponent (a multiple of 3,
        // at most 18) that leaves a whole mantissa is -scale rounded down to a multiple of 3
        int exponent = Math.min(18, Math.floorDiv(-stripped.scale(), 3) * 3);
        BigInteger mantissa = stripped.unscaledValue().multiply(BigInteger.TEN.pow(-stripped.scale() - exponent));
        return mantissa + DECIMAL_SUFFIXES[exponent / 3 + 3];
    }

    private static boolean isWhole(BigDecimal value) {
        return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    }
}
