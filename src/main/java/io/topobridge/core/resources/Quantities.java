package io.topobridge.core.resources;

import io.fabric8.kubernetes.api.model.Quantity;
import io.topobridge.core.finding.UserText;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes quantities as exact decimals, and back to the canonical string form Kubernetes itself prints:
 * binary suffixes ({@code Ki…Ei}) for amounts first written with one (1024 and above, whole), otherwise
 * the largest decimal suffix ({@code n u m "" k M G T P E}) that keeps the mantissa whole, never a fraction.
 */
public final class Quantities {

    private static final String[] DECIMAL_SUFFIXES = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigDecimal KIBI = BigDecimal.valueOf(1024);

    /** The largest magnitude Kubernetes represents in a quantity: 2^63-1 base units. */
    public static final BigDecimal MAX_AMOUNT = BigDecimal.valueOf(Long.MAX_VALUE);
    /** The longest quantity string read; Kubernetes itself prints none longer than about 30 characters. */
    public static final int MAX_LENGTH = 64;

    private static final BigDecimal NANO = BigDecimal.ONE.movePointLeft(9);
    /** Kubernetes' quantity syntax with a whole-number exponent (its parser refuses any other). */
    private static final Pattern SYNTAX =
            Pattern.compile("([+-]?)([0-9]*)(?:\\.([0-9]*))?(?:([KMGTPE]i|[numkMGTPE])|[eE]([+-]?[0-9]+))?");

    /**
     * The exact amount of a quantity in base units, rounded up to whole nano units as Kubernetes rounds it. Read in
     * time bounded by {@link #MAX_LENGTH}, whatever the exponent says.
     *
     * @throws IllegalArgumentException when it is no quantity, longer than {@link #MAX_LENGTH} characters, or beyond
     *     {@link #MAX_AMOUNT} in magnitude (Kubernetes cannot represent it); the message quotes a bounded excerpt
     */
    public static BigDecimal amount(Quantity quantity) {
        String text = quantity == null
                ? ""
                : (quantity.getAmount() == null ? "" : quantity.getAmount())
                        + (quantity.getFormat() == null ? "" : quantity.getFormat());
        return amount(text);
    }

    public static BigDecimal amount(String text) {
        String raw = text == null ? "" : text;
        if (raw.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "quantity " + UserText.quote(raw) + " is longer than " + MAX_LENGTH + " characters");
        }
        int digits = plainDigits(raw);
        if (digits > 0) {
            // digits and at most a suffix, as nearly every quantity is written: read without the pattern
            String suffix = digits == raw.length() ? null : raw.substring(digits);
            return amount(raw, false, raw.substring(0, digits), "", suffix, null);
        }
        Matcher m = SYNTAX.matcher(raw);
        boolean matches = m.matches();
        String whole = matches ? m.group(2) : "";
        String fraction = matches && m.group(3) != null ? m.group(3) : "";
        if (!matches || (whole.isEmpty() && fraction.isEmpty())) {
            throw new IllegalArgumentException("quantity " + UserText.quote(raw) + " is not a Kubernetes quantity");
        }
        return amount(raw, "-".equals(m.group(1)), whole, fraction, m.group(4), m.group(5));
    }

    /**
     * How many digits {@code raw} starts with when it is only digits followed by nothing, one decimal suffix or one
     * binary suffix (what {@link #SYNTAX} reads as whole number and suffix); 0 for any other form.
     */
    private static int plainDigits(String raw) {
        int digits = 0;
        while (digits < raw.length() && raw.charAt(digits) >= '0' && raw.charAt(digits) <= '9') {
            digits++;
        }
        int rest = raw.length() - digits;
        if (digits == 0 || rest > 2) {
            return 0;
        }
        if (rest == 0) {
            return digits;
        }
        char unit = raw.charAt(digits);
        if (rest == 1) {
            return "numkMGTPE".indexOf(unit) >= 0 ? digits : 0;
        }
        return "KMGTPE".indexOf(unit) >= 0 && raw.charAt(digits + 1) == 'i' ? digits : 0;
    }

    /**
     * The amount of a quantity read as sign, whole and fraction digits, suffix and written exponent (each null or
     * empty when absent); {@code raw} is what messages quote.
     */
    private static BigDecimal amount(
            String raw, boolean negative, String whole, String fraction, String suffix, String writtenExponent) {
        BigDecimal mantissa = new BigDecimal(whole.isEmpty() ? "0" : whole)
                .add(fraction.isEmpty() ? BigDecimal.ZERO : new BigDecimal("0." + fraction));
        if (mantissa.signum() == 0) {
            return BigDecimal.ZERO;
        }
        int digits = mantissa.precision() - mantissa.scale(); // digits before the point (may be zero or below)
        BigDecimal value;
        if (suffix != null && suffix.endsWith("i")) {
            int power = "KMGTPE".indexOf(suffix.charAt(0)) + 1;
            if (digits > 19) {
                throw tooLarge(raw);
            }
            value = mantissa.multiply(BigDecimal.valueOf(1024).pow(power));
        } else {
            long exponent =
                    suffix != null ? 3L * ("num kMGTPE".indexOf(suffix.charAt(0)) - 3) : exponent(writtenExponent, raw);
            if (digits + exponent > 19) {
                throw tooLarge(raw);
            }
            // below a nano unit the amount is rounded up to one: no need to compute its digits
            value = digits + exponent < -9 ? NANO : mantissa.scaleByPowerOfTen((int) exponent);
        }
        value = value.scale() > 9 ? value.setScale(9, RoundingMode.CEILING) : value;
        if (value.compareTo(MAX_AMOUNT) > 0) {
            throw tooLarge(raw);
        }
        return negative ? value.negate() : value;
    }

    /** A written exponent, or 0; one of more than nine digits is out of any range Kubernetes reads. */
    private static long exponent(String written, String raw) {
        if (written == null) {
            return 0;
        }
        String digits = written.replaceFirst("^[+-]", "").replaceFirst("^0+(?=.)", "");
        if (digits.length() > 9) {
            if (written.startsWith("-")) {
                return -1_000_000_000L;
            }
            throw tooLarge(raw);
        }
        return Long.parseLong(written.startsWith("+") ? written.substring(1) : written);
    }

    private static IllegalArgumentException tooLarge(String raw) {
        return new IllegalArgumentException("quantity " + UserText.quote(raw)
                + " is beyond what Kubernetes represents (at most 2^63-1 base units)");
    }

    /** Whether the quantity was written with a binary suffix ({@code Ki}, {@code Mi}…). */
    public static boolean binary(Quantity quantity) {
        String format = quantity.getFormat();
        return format != null && format.length() == 2 && format.charAt(1) == 'i';
    }

    public static String canonical(BigDecimal amount, boolean binary) {
        if (amount.signum() == 0) {
            return "0";
        }
        // Kubernetes keeps at most nano precision and rounds away from zero
        BigDecimal value = amount.scale() <= 9
                ? amount
                : amount.setScale(9, amount.signum() > 0 ? RoundingMode.CEILING : RoundingMode.FLOOR);
        if (binary
                && value.abs().compareTo(KIBI) >= 0
                && value.stripTrailingZeros().scale() <= 0) {
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
}
