package io.topobridge.core.capacity;

import io.topobridge.core.node.Accelerators;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Whether pods fit onto nodes one by one, and which resource decides it (the one a sentence speaks of). */
public final class Packing {

    private Packing() {}

    /** Whether the pods fit on the nodes one by one (first fit, largest pods first). */
    public static boolean packs(List<Amounts> pods, List<Amounts> nodes, Accelerators accelerators) {
        List<Amounts> free = new ArrayList<>(nodes);
        List<Amounts> sorted = new ArrayList<>(pods);
        Amounts total = sorted.stream().reduce(Amounts.NONE, Amounts::plus);
        String key = spoken(total, Amounts.NONE, accelerators);
        if (key != null) {
            sorted.sort(Comparator.comparing((Amounts a) -> a.get(key)).reversed());
        }
        for (Amounts pod : sorted) {
            boolean placed = false;
            for (int i = 0; i < free.size(); i++) {
                if (free.get(i).covers(pod)) {
                    free.set(i, free.get(i).minusClamped(pod));
                    placed = true;
                    break;
                }
            }
            if (!placed) {
                return false;
            }
        }
        return true;
    }

    /** The resource a sentence speaks of: an accelerator when needed, else the one {@code free} is shortest of. */
    public static String spoken(Amounts need, Amounts free, Accelerators accelerators) {
        for (String r : need.values().keySet()) {
            if (accelerators.is(r)) {
                return r;
            }
        }
        return free.scarcest(need, accelerators);
    }
}
