package io.topobridge.core.workload.changes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaSpec;
import io.fabric8.kubernetes.api.model.ScopedResourceSelectorRequirement;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.resources.Quantities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/**
 * What the bridge's PodGroups of one namespace may reserve together. Volcano holds a PodGroup's {@code minResources}
 * in its queue from the moment it is enqueued, so a namespace allowed no GPU at all could otherwise hold PodGroups
 * worth the whole cluster many times over. The limits: each of the namespace's ResourceQuotas whose scopes match the
 * PodGroup ({@code requests.<resource>}, {@code cpu}, {@code memory}, {@code pods} against the sum of
 * {@code minMember}; a quota scoped to priority classes counts only the PodGroups of those classes, so a class the
 * namespace may not use at all is refused), a configured share of the cluster's allocatable resources, and fixed
 * configured amounts. A new PodGroup, or one that grows, is written only within every limit; one already over a limit
 * (the quota was lowered) is kept as it is, and shrinking is always allowed.
 */
public final class Reservations {

    /** The resource name under which a PodGroup's {@code minMember} is counted (as ResourceQuota counts pods). */
    public static final String PODS = "pods";

    /**
     * Configured limits for every namespace.
     *
     * @param clusterShare the share of the cluster's allocatable resources (0 to 1) one namespace's PodGroups may
     *     reserve together; null for none
     * @param fixed resource amounts one namespace's PodGroups may reserve together, whatever the cluster
     */
    public record Settings(BigDecimal clusterShare, Map<String, BigDecimal> fixed) {

        public static final String SHARE_KEY = "topobridge.workloads.max-namespace-share";
        public static final String FIXED_KEY = "topobridge.workloads.max-namespace-reservation";

        public Settings {
            if (clusterShare != null && (clusterShare.signum() <= 0 || clusterShare.compareTo(BigDecimal.ONE) > 0)) {
                throw new IllegalArgumentException(
                        SHARE_KEY + "=" + clusterShare.toPlainString() + ": must be above 0 and at most 1");
            }
            fixed = fixed == null ? Map.of() : Map.copyOf(new TreeMap<>(fixed));
        }

        /**
         * Parses a share: a decimal or a percentage between 0 and 1 ({@code 0.25}, {@code 25%}); 0 means no share limit
         * (null). The exception names the key and a bounded excerpt of the value.
         */
        public static BigDecimal parseShare(String raw) {
            String value = raw == null ? "" : raw.strip();
            BigDecimal out = null;
            if (value.length() <= 32) {
                try {
                    out = value.endsWith("%")
                            ? new BigDecimal(value.substring(0, value.length() - 1)
                                            .strip())
                                    .movePointLeft(2)
                            : new BigDecimal(value);
                } catch (NumberFormatException e) {
                    out = null;
                }
            }
            if (out == null || out.signum() < 0 || out.compareTo(BigDecimal.ONE) > 0) {
                throw new IllegalArgumentException(
                        SHARE_KEY + "=" + UserText.quote(value) + ": must be between 0 and 1 (or 0% and 100%)");
            }
            return out.signum() == 0 ? null : out;
        }

        /**
         * Parses {@code resource=quantity} entries (e.g. {@code nvidia.com/gpu=64}); the exception names the key and a
         * bounded excerpt of the bad entry.
         */
        public static Map<String, BigDecimal> parseFixed(List<String> entries) {
            Map<String, BigDecimal> out = new TreeMap<>();
            for (String entry : entries == null ? List.<String>of() : entries) {
                if (entry == null || entry.isBlank()) {
                    continue;
                }
                int eq = entry.indexOf('=');
                String resource = eq < 0 ? "" : entry.substring(0, eq).strip();
                if (eq < 0 || resource.isEmpty()) {
                    throw new IllegalArgumentException(FIXED_KEY + ": " + UserText.quote(entry)
                            + " is not resource=quantity (e.g. nvidia.com/gpu=64)");
                }
                try {
                    out.put(resource, Quantities.amount(entry.substring(eq + 1).strip()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            FIXED_KEY + ": " + UserText.quote(entry) + ": " + e.getMessage());
                }
            }
            return out;
        }
    }

    /**
     * One limit on the sum of what matching PodGroups reserve.
     *
     * @param source what sets it, as a message names it ({@code ResourceQuota ns/name}, a configuration key)
     * @param priorityClasses whether it is a quota scoped to priority classes
     * @param selector which PodGroups it counts, by their priority class and whether they request anything
     */
    record Limit(
            String source,
            boolean priorityClasses,
            Map<String, BigDecimal> hard,
            BiPredicate<String, Boolean> selector) {}

    /** A limit a PodGroup would break: the resource, the sum with it, the limit. */
    public record Breach(String source, boolean priorityClasses, String resource, BigDecimal total, BigDecimal hard) {

        /** {@code nvidia.com/gpu 80 > 64 (ResourceQuota ns/gpu)}. */
        public String describe() {
            return resource + " " + Amounts.show(resource, total) + " > " + Amounts.show(resource, hard) + " (" + source
                    + ")";
        }
    }

    private final List<Limit> limits;

    private Reservations(List<Limit> limits) {
        this.limits = List.copyOf(limits);
    }

    /**
     * The limits of a namespace.
     *
     * @param quotas the namespace's ResourceQuotas (typed, or generic objects read from files)
     * @param cluster the cluster's allocatable resources, or null when unknown (no share of it then)
     */
    public static Reservations of(Settings settings, List<? extends HasMetadata> quotas, Amounts cluster) {
        List<Limit> limits = new ArrayList<>();
        for (HasMetadata object : quotas) {
            quota(object).ifPresent(limits::add);
        }
        if (settings.clusterShare() != null && cluster != null && !cluster.isEmpty()) {
            Map<String, BigDecimal> share = new TreeMap<>();
            cluster.values()
                    .forEach((resource, amount) -> share.put(
                            resource, amount.multiply(settings.clusterShare()).setScale(3, RoundingMode.DOWN)));
            limits.add(new Limit(
                    Settings.SHARE_KEY + "="
                            + settings.clusterShare().stripTrailingZeros().toPlainString()
                            + " of the cluster's allocatable resources",
                    false,
                    share,
                    (pc, be) -> true));
        }
        if (!settings.fixed().isEmpty()) {
            limits.add(new Limit(Settings.FIXED_KEY, false, settings.fixed(), (pc, be) -> true));
        }
        return new Reservations(limits);
    }

    public boolean bounded() {
        return !limits.isEmpty();
    }

    /**
     * The first limit a PodGroup reserving {@code need} would break, counting what {@code others} reserve (the
     * namespace's other PodGroups of the bridge that the limit counts, the scope's own already planned included).
     */
    public Optional<Breach> breach(Reserved need, Collection<Reserved> others) {
        boolean bestEffort = bestEffort(need.amounts());
        for (Limit limit : limits) {
            if (!limit.selector().test(need.priorityClass(), bestEffort)) {
                continue;
            }
            for (Map.Entry<String, BigDecimal> hard : limit.hard().entrySet()) {
                BigDecimal wanted = need.amounts().get(hard.getKey());
                if (wanted.signum() <= 0) {
                    continue;
                }
                BigDecimal total = others.stream()
                        .filter(other -> limit.selector().test(other.priorityClass(), bestEffort(other.amounts())))
                        .map(other -> other.amounts().get(hard.getKey()))
                        .reduce(wanted, BigDecimal::add);
                if (total.compareTo(hard.getValue()) > 0) {
                    return Optional.of(
                            new Breach(limit.source(), limit.priorityClasses(), hard.getKey(), total, hard.getValue()));
                }
            }
        }
        return Optional.empty();
    }

    /** What one PodGroup reserves, with its priority class (null when none). */
    public record Reserved(Amounts amounts, String priorityClass) {
        public Reserved {
            Objects.requireNonNull(amounts, "amounts");
        }

        /** Whether this reserves at least {@code need}, in the same priority class. */
        boolean covers(Reserved need) {
            return amounts.covers(need.amounts()) && Objects.equals(priorityClass, need.priorityClass());
        }
    }

    /** Whether amounts request nothing but pods (what a quota's BestEffort scope counts). */
    private static boolean bestEffort(Amounts amounts) {
        return amounts.values().entrySet().stream()
                .noneMatch(e -> !PODS.equals(e.getKey()) && e.getValue().signum() > 0);
    }

    /** A quota's limits on what PodGroups reserve; empty when it limits nothing they reserve, or applies to none. */
    private static Optional<Limit> quota(HasMetadata object) {
        ResourceQuotaSpec spec =
                ObservedPodGroup.spec(object, ResourceQuota.class, ResourceQuota::getSpec, ResourceQuotaSpec.class);
        if (spec == null || spec.getHard() == null) {
            return Optional.empty();
        }
        Map<String, BigDecimal> hard = new TreeMap<>();
        for (Map.Entry<String, Quantity> e : spec.getHard().entrySet()) {
            String resource = resource(e.getKey());
            if (resource == null || e.getValue() == null) {
                continue;
            }
            try {
                BigDecimal amount = Quantities.amount(e.getValue());
                hard.merge(resource, amount, BigDecimal::min);
            } catch (IllegalArgumentException ignored) {
                // the API server validates quota amounts; one it kept that no one can read limits nothing
            }
        }
        if (hard.isEmpty()) {
            return Optional.empty();
        }
        List<String> scopes = spec.getScopes() == null ? List.of() : spec.getScopes();
        List<ScopedResourceSelectorRequirement> selectors =
                spec.getScopeSelector() == null || spec.getScopeSelector().getMatchExpressions() == null
                        ? List.of()
                        : spec.getScopeSelector().getMatchExpressions();
        boolean priorityClasses = selectors.stream().anyMatch(s -> "PriorityClass".equals(s.getScopeName()));
        BiPredicate<String, Boolean> matcher = (priorityClass, bestEffort) ->
                scopes.stream().allMatch(scope -> scopeMatches(scope, "Exists", List.of(), priorityClass, bestEffort))
                        && selectors.stream()
                                .allMatch(s -> scopeMatches(
                                        s.getScopeName(), s.getOperator(), s.getValues(), priorityClass, bestEffort));
        String name =
                object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
        return Optional.of(new Limit("ResourceQuota " + name, priorityClasses, hard, matcher));
    }

    /**
     * Whether a quota scope holds for the pods of a gang: they are long-running (NotTerminating), request something
     * unless best-effort, and use no cross-namespace affinity the bridge could see.
     */
    private static boolean scopeMatches(
            String scope, String operator, List<String> values, String priorityClass, boolean bestEffort) {
        String op = operator == null ? "Exists" : operator;
        return switch (scope == null ? "" : scope) {
            case "PriorityClass" -> {
                String pc = priorityClass == null ? "" : priorityClass;
                yield switch (op) {
                    case "In" -> values != null && values.contains(pc);
                    case "NotIn" -> values == null || !values.contains(pc);
                    case "Exists" -> !pc.isEmpty();
                    case "DoesNotExist" -> pc.isEmpty();
                    default -> false;
                };
            }
            case "NotTerminating" -> !"DoesNotExist".equals(op);
            case "Terminating" -> "DoesNotExist".equals(op);
            case "BestEffort" -> bestEffort != "DoesNotExist".equals(op);
            case "NotBestEffort" -> !bestEffort != "DoesNotExist".equals(op);
            default -> false;
        };
    }

    /** The resource a quota key limits, as PodGroups count it; null for keys that limit nothing they reserve. */
    static String resource(String key) {
        if (key == null) {
            return null;
        }
        if (key.startsWith("requests.")) {
            return key.substring("requests.".length());
        }
        boolean counted = List.of(PODS, "cpu", "memory", "ephemeral-storage").contains(key);
        return counted || key.startsWith("hugepages-") ? key : null;
    }
}
