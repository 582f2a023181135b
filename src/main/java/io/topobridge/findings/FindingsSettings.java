package io.topobridge.findings;

/**
 * How many findings the registry keeps per object and how fast their Events are written ({@code topobridge.findings.*}
 * and {@code topobridge.events.*}). An invalid value throws with one message naming its key.
 *
 * @param maxPerObject most distinct findings one source keeps on one object, a summary of the others included
 * @param qps Event writes a second, all objects together, once {@code burst} is spent
 * @param burst Event writes at once, all objects together
 * @param perObjectQps Event writes a second about one object, once {@code perObjectBurst} is spent
 * @param perObjectBurst Event writes at once about one object
 * @param queueSize most Events waiting to be written (an update of a waiting one replaces it)
 */
public record FindingsSettings(
        int maxPerObject, double qps, int burst, double perObjectQps, int perObjectBurst, int queueSize) {

    public FindingsSettings {
        atLeast("topobridge.findings.max-per-object", maxPerObject, 2);
        rate("topobridge.events.qps", qps);
        atLeast("topobridge.events.burst", burst, 1);
        rate("topobridge.events.per-object-qps", perObjectQps);
        atLeast("topobridge.events.per-object-burst", perObjectBurst, 1);
        atLeast("topobridge.events.queue-size", queueSize, 1);
    }

    private static void atLeast(String key, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(key + "=" + value + " must be at least " + min);
        }
    }

    private static void rate(String key, double value) {
        if (!(value > 0) || Double.isInfinite(value) || value > 1_000_000) {
            throw new IllegalArgumentException(key + "=" + value + " must be a number above 0 (at most 1000000)");
        }
    }
}
