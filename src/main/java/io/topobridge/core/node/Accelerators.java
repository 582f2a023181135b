package io.topobridge.core.node;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The extended resources that are accelerators (GPUs, NPUs, TPUs…): what {@code highest-tier: auto} sizes a gang by
 * when the gang requests any of them (else by CPU and memory), what makes a node an accelerator node, and what
 * explain and doctor speak of first. Exact resource names as device plugins register them.
 *
 * @param resources the resource names, in the configured order
 */
public record Accelerators(List<String> resources) {

    public static final String KEY = "topobridge.workloads.accelerator-resources";

    /**
     * The device plugins' resource names of NVIDIA, AMD, Intel Gaudi and Intel GPUs, Huawei Ascend NPUs, AWS
     * Trainium/Inferentia (Neuron) and Google TPUs.
     */
    public static final List<String> DEFAULT_RESOURCES = List.of(
            "nvidia.com/gpu",
            "amd.com/gpu",
            "habana.ai/gaudi",
            "gpu.intel.com/i915",
            "gpu.intel.com/xe",
            "huawei.com/Ascend910",
            "huawei.com/Ascend310",
            "huawei.com/Ascend310P",
            "aws.amazon.com/neuron",
            "aws.amazon.com/neuroncore",
            "google.com/tpu");

    public static final Accelerators DEFAULT = new Accelerators(DEFAULT_RESOURCES);

    static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    public Accelerators {
        resources = List.copyOf(resources);
    }

    /**
     * Parses the configured list: each entry an extended resource name ({@code <domain>/<name>}, the domain a DNS
     * subdomain outside {@code kubernetes.io}, the name at most 63 characters), listed once.
     *
     * @throws IllegalArgumentException naming the key and the bad entry
     */
    public static Accelerators parse(List<String> entries) {
        if (entries == null) {
            return DEFAULT;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String raw : entries) {
            String entry = raw == null ? "" : raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            String problem = problem(entry);
            if (problem != null) {
                String shown = entry.length() > 80 ? entry.substring(0, 80) + "..." : entry;
                throw new IllegalArgumentException(
                        KEY + ": '" + shown + "' is not an extended resource name (" + problem + ")");
            }
            if (!out.add(entry)) {
                throw new IllegalArgumentException(KEY + ": '" + entry + "' is listed twice");
            }
        }
        return new Accelerators(new ArrayList<>(out));
    }

    /** Why a name is not an extended resource name a device plugin could register, or null. */
    public static String problem(String name) {
        int slash = name.indexOf('/');
        if (slash <= 0 || slash != name.lastIndexOf('/')) {
            return "it must be <domain>/<name>, e.g. amd.com/gpu";
        }
        String domain = name.substring(0, slash);
        String local = name.substring(slash + 1);
        if (domain.length() > 253 || !DNS_SUBDOMAIN.matcher(domain).matches()) {
            return "the domain must be a lower-case DNS subdomain";
        }
        if (domain.equals("kubernetes.io") || domain.endsWith(".kubernetes.io")) {
            return "kubernetes.io names are Kubernetes' own resources, not a device plugin's";
        }
        if (local.isEmpty() || local.length() > 63 || !NAME.matcher(local).matches()) {
            return "the name must be 1-63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
        }
        return null;
    }

    public boolean is(String resource) {
        return resources.contains(resource);
    }

    /** The accelerators among {@code amounts}' keys whose amount is above zero, in the configured order. */
    public List<String> in(Map<String, ? extends Number> amounts) {
        return resources.stream()
                .filter(r -> amounts.get(r) instanceof java.math.BigDecimal b
                        ? b.signum() > 0
                        : amounts.get(r) != null && amounts.get(r).doubleValue() > 0)
                .collect(Collectors.toCollection(ArrayList::new));
    }

    /**
     * How a person reads an amount of an accelerator: a resource named {@code gpu} in any domain is "GPUs" (so
     * {@code nvidia.com/gpu} and {@code amd.com/gpu} read alike), any other its resource name.
     */
    public static String noun(String resource, boolean one) {
        Objects.requireNonNull(resource, "resource");
        return resource.endsWith("/gpu") ? (one ? "GPU" : "GPUs") : resource;
    }
}
