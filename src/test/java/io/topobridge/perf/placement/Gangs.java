package io.topobridge.perf.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The gangs every placement run is offered: the examples' gang shapes, with the tiers the examples choose for them by
 * hand, and the seeded sequence in which they arrive and leave.
 */
public final class Gangs {

    /** Tier numbers of the example tree's tier names (the bridge's default preset on the example labels). */
    public static final Map<String, Integer> TIERS = Map.of("nvlink", 1, "nvlink-domain", 2, "leaf", 3, "spine", 4);

    /** One role of a gang shape: its replicas and the GPUs of each pod. */
    public record Role(String name, int replicas, int gpus) {}

    /**
     * A gang shape of the examples, with the tiers the examples choose for it by hand: the gang's tier name and
     * mode, and the tier name of each role (null: none).
     */
    public record Shape(String name, int weight, List<Role> roles, String tier, String mode, String roleTier) {

        public boolean prefillDecode() {
            return roles.size() > 1;
        }

        public int pods() {
            return roles.stream().mapToInt(Role::replicas).sum();
        }

        public int gpus() {
            return roles.stream().mapToInt(r -> r.replicas() * r.gpus()).sum();
        }

        public boolean hard() {
            return "hard".equals(mode);
        }
    }

    public static final List<Shape> SHAPES = List.of(
            new Shape("tp", 3, List.of(new Role("engine", 4, 4)), "nvlink", "hard", null),
            new Shape("tp9", 1, List.of(new Role("engine", 9, 4)), "nvlink", "hard", null),
            new Shape(
                    "llmd", 3, List.of(new Role("prefill", 2, 1), new Role("decode", 1, 2)), "leaf", "hard", "nvlink"),
            new Shape("ds", 2, List.of(new Role("prefill", 2, 1), new Role("decode", 2, 4)), "leaf", "soft", "nvlink"),
            new Shape(
                    "storm",
                    2,
                    List.of(new Role("prefill", 1, 1), new Role("decode", 1, 1)),
                    "leaf",
                    "hard",
                    "nvlink"));

    /** Gang {@code index} arrives at step {@code index} and leaves at step {@code index + lifetime}. */
    public record Arrival(int index, Shape shape, int lifetime) {

        public String gang() {
            return shape.name() + "-" + index;
        }
    }

    private Gangs() {}

    /** The seeded arrival sequence, the same for every run. */
    public static List<Arrival> arrivals(int count, int minLifetime, int maxLifetime, Random random) {
        int total = SHAPES.stream().mapToInt(Shape::weight).sum();
        List<Arrival> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int pick = random.nextInt(total);
            Shape shape = null;
            for (Shape s : SHAPES) {
                pick -= s.weight();
                if (pick < 0) {
                    shape = s;
                    break;
                }
            }
            out.add(new Arrival(i, shape, minLifetime + random.nextInt(maxLifetime - minLifetime + 1)));
        }
        return out;
    }
}
