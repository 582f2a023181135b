package io.topobridge.findings;

/**
 * A token bucket on a caller's clock (nanoseconds): it holds at most {@code burst} tokens (at least 1) and gains
 * {@code qps} a second (above 0: see {@link FindingsSettings}). Not thread-safe: its owner guards it.
 */
final class TokenBucket {

    private final double perNano;
    private final double burst;
    private double tokens;
    private long last;

    TokenBucket(double qps, int burst, long now) {
        this.perNano = qps / 1e9;
        this.burst = burst;
        this.tokens = burst;
        this.last = now;
    }

    private void refill(long now) {
        long elapsed = now - last;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + elapsed * perNano);
            last = now;
        }
    }

    /** Whether a token is there now (without taking it). */
    boolean available(long now) {
        refill(now);
        return tokens >= 1;
    }

    /** Takes a token if there is one. */
    boolean tryTake(long now) {
        refill(now);
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    /** Nanoseconds until a token is there (0 when one is). */
    long nanosUntilToken(long now) {
        refill(now);
        return tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) / perNano);
    }

    /** Whether the bucket is full: forgetting it changes nothing. */
    boolean full(long now) {
        refill(now);
        return tokens >= burst;
    }
}
