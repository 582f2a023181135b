package io.topobridge.core.node;

import io.topobridge.core.finding.UserText;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which DRA DeviceClasses hand out whole accelerators, and as which extended resource the bridge counts them: a
 * request for {@code count} devices of a mapped class counts as {@code count} of the resource when a gang is sized
 * ({@code highest-tier: auto}, explain). Only classes whose every device is one accelerator belong here (not MIG
 * slices, not shared devices).
 *
 * @param resources the extended resource of each DeviceClass name, in the configured order
 */
public record DeviceClasses(Map<String, String> resources) {

    public static final String KEY = "topobridge.workloads.dra-device-classes";

    /**
     * The DeviceClasses the DRA drivers of NVIDIA ({@code gpu.nvidia.com}), AMD ({@code gpu.amd.com}) and Intel Gaudi
     * ({@code gaudi.intel.com}) create for whole devices, as the resource names of the same vendors' device plugins.
     */
    public static final List<String> DEFAULT_ENTRIES =
            List.of("gpu.nvidia.com=nvidia.com/gpu", "gpu.amd.com=amd.com/gpu", "gaudi.intel.com=habana.ai/gaudi");

    public static final DeviceClasses DEFAULT = parse(DEFAULT_ENTRIES);

    public DeviceClasses {
        resources = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(resources));
    }

    /**
     * Parses {@code deviceClassName=resource} entries: the class a DNS subdomain (as Kubernetes names DeviceClasses),
     * the resource an extended resource name ({@code <domain>/<name>}), each class listed once.
     *
     * @throws IllegalArgumentException naming the key and the bad entry
     */
    public static DeviceClasses parse(List<String> entries) {
        if (entries == null) {
            return DEFAULT;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String raw : entries) {
            String entry = raw == null ? "" : raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(KEY + ": " + UserText.quote(entry)
                        + " is not deviceClassName=resource (e.g. gpu.nvidia.com=nvidia.com/gpu)");
            }
            String deviceClass = entry.substring(0, eq).trim();
            String resource = entry.substring(eq + 1).trim();
            if (deviceClass.isEmpty()
                    || deviceClass.length() > 253
                    || !Accelerators.DNS_SUBDOMAIN.matcher(deviceClass).matches()) {
                throw new IllegalArgumentException(KEY + ": " + UserText.quote(deviceClass)
                        + " is not a DeviceClass name (a lower-case DNS subdomain of at most 253 characters)");
            }
            String problem = Accelerators.problem(resource);
            if (problem != null) {
                throw new IllegalArgumentException(KEY + ": " + UserText.quote(resource) + " (for DeviceClass "
                        + deviceClass + ") is not an extended resource name (" + problem + ")");
            }
            if (out.putIfAbsent(deviceClass, resource) != null) {
                throw new IllegalArgumentException(KEY + ": DeviceClass " + deviceClass + " is listed twice");
            }
        }
        return new DeviceClasses(out);
    }

    /** The resource a DeviceClass's devices count as, if it is mapped. */
    public Optional<String> resourceOf(String deviceClass) {
        return Optional.ofNullable(deviceClass == null ? null : resources.get(deviceClass));
    }
}
