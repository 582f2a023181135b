package io.topobridge.core.workload.dra;

import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.node.DeviceClasses;
import io.topobridge.core.resources.Quantities;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.gang.PodRole;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * The devices a gang's pods claim through Dynamic Resource Allocation ({@code resource.k8s.io/v1}), counted as the
 * extended resources their DeviceClasses map to ({@link DeviceClasses}). A pod template's {@code resourceClaims} name
 * a ResourceClaimTemplate (each pod gets a claim of its own) or a ResourceClaim (one claim shared by every pod that
 * names it, counted once per gang); each request of {@code exactly} one DeviceClass with {@code allocationMode:
 * ExactCount} (the default, {@code count} default 1) counts. What cannot be counted (a class not mapped, {@code
 * allocationMode: All}, a prioritized list of alternatives, a missing object, a claim beyond Kubernetes' limits) is
 * listed, never dropped silently; requests for admin access consume no device and are skipped. A claim of an IMEX
 * channel of a GB200 ComputeDomain ({@link ComputeDomains#CHANNEL_CLASSES}) is no accelerator: it is neither counted
 * nor listed, but remembered by the claim it comes from, so the gang can be judged by it ({@link ComputeDomains}).
 */
public final class DraDevices {

    /** The most claims of one pod template read (the bridge's own bound). */
    public static final int MAX_CLAIMS_PER_POD = 32;
    /** The most requests Kubernetes accepts in one claim ({@code DeviceRequestsMaxSize}). */
    public static final int MAX_REQUESTS = 32;
    /** The most devices Kubernetes allocates to one claim ({@code AllocationResultsMaxSize}). */
    public static final int MAX_DEVICES_PER_CLAIM = 32;

    private static final String EXACT_COUNT = "ExactCount";
    private static final String ALL = "All";

    /**
     * One claim, or one request of a claim, whose devices are not counted.
     *
     * @param claim the pod's name for the claim ({@code spec.resourceClaims[].name})
     * @param source the object it comes from, e.g. {@code ResourceClaimTemplate "decode-gpus"}
     * @param deviceClass the DeviceClass asked for, or null where none is known
     * @param why why it is not counted
     */
    public record Uncounted(String claim, String source, String deviceClass, String why) {
        /** {@code claim "gpus" (ResourceClaimTemplate "t", device class "c"): why}. */
        public String describe() {
            return "claim " + UserText.quote(claim) + " (" + source
                    + (deviceClass == null ? "" : ", device class " + UserText.quote(deviceClass)) + "): " + why;
        }
    }

    /**
     * What one pod template claims: the devices every pod gets from its own claims, the devices of shared claims by
     * claim name, what is not counted, and the ComputeDomain channels it claims, each by the object it claims it through
     * (e.g. {@code ResourceClaimTemplate "imex-channel"}).
     */
    public record PodDevices(
            Amounts perPod, Map<String, Amounts> shared, List<Uncounted> uncounted, List<String> channels) {
        public static final PodDevices NONE = new PodDevices(Amounts.NONE, Map.of(), List.of(), List.of());

        public PodDevices {
            shared = Map.copyOf(shared);
            uncounted = List.copyOf(uncounted);
            channels = List.copyOf(new LinkedHashSet<>(channels));
        }
    }

    public static boolean claims(PodSpec spec) {
        return spec != null
                && spec.getResourceClaims() != null
                && !spec.getResourceClaims().isEmpty();
    }

    /** What one pod template of {@code namespace} claims. */
    public static PodDevices of(PodSpec spec, String namespace, WorkloadLookup lookup, DeviceClasses classes) {
        if (!claims(spec)) {
            return PodDevices.NONE;
        }
        List<PodResourceClaim> podClaims = spec.getResourceClaims();
        Amounts perPod = Amounts.NONE;
        Map<String, Amounts> shared = new TreeMap<>();
        List<Uncounted> uncounted = new ArrayList<>();
        List<String> channels = new ArrayList<>();
        String unknown = lookup.resourceClaimsUnknown();
        int read = 0;
        for (PodResourceClaim podClaim : podClaims) {
            if (podClaim == null) {
                continue;
            }
            String name = podClaim.getName();
            if (++read > MAX_CLAIMS_PER_POD) {
                uncounted.add(new Uncounted(
                        name,
                        "pod template",
                        null,
                        "the template has " + podClaims.size() + " claims; the bridge reads the first "
                                + MAX_CLAIMS_PER_POD));
                break;
            }
            String templateName = podClaim.getResourceClaimTemplateName();
            String claimName = podClaim.getResourceClaimName();
            boolean own = templateName != null && !templateName.isEmpty();
            if (!own && (claimName == null || claimName.isEmpty())) {
                uncounted.add(new Uncounted(
                        name, "pod template", null, "names neither a ResourceClaimTemplate nor a ResourceClaim"));
                continue;
            }
            String kind = own ? "ResourceClaimTemplate" : "ResourceClaim";
            String source = kind + " " + UserText.quote(own ? templateName : claimName);
            if (unknown != null) {
                uncounted.add(new Uncounted(name, source, null, unknown));
                continue;
            }
            // a template (each pod gets a claim of its own) or a claim (shared by every pod that names it)
            Optional<ResourceClaimSpec> found = own
                    ? lookup.resourceClaimTemplate(namespace, templateName)
                            .map(t -> specOrEmpty(
                                    t.getSpec() == null ? null : t.getSpec().getSpec()))
                    : lookup.resourceClaim(namespace, claimName).map(c -> specOrEmpty(c.getSpec()));
            if (found.isEmpty()) {
                uncounted.add(new Uncounted(name, source, null, "no such " + kind + " in namespace " + namespace));
                continue;
            }
            Amounts devices = count(name, source, found.get(), classes, uncounted, channels);
            if (own) {
                perPod = perPod.plus(devices);
            } else if (!devices.isEmpty()) {
                shared.put(claimName, devices);
            }
        }
        return new PodDevices(perPod, shared, uncounted, channels);
    }

    private static ResourceClaimSpec specOrEmpty(ResourceClaimSpec spec) {
        return spec == null ? new ResourceClaimSpec() : spec;
    }

    /**
     * The devices one claim's requests count as; what they cannot be counted as goes to {@code uncounted}, and
     * {@code source} to {@code channels} when a request is for a ComputeDomain channel.
     */
    static Amounts count(
            String claim,
            String source,
            ResourceClaimSpec spec,
            DeviceClasses classes,
            List<Uncounted> uncounted,
            List<String> channels) {
        DeviceClaim devices = spec == null ? null : spec.getDevices();
        List<DeviceRequest> requests =
                devices == null || devices.getRequests() == null ? List.of() : devices.getRequests();
        if (requests.size() > MAX_REQUESTS) {
            uncounted.add(new Uncounted(
                    claim,
                    source,
                    null,
                    requests.size() + " requests, more than the " + MAX_REQUESTS
                            + " Kubernetes accepts in one claim: none is counted"));
            return Amounts.NONE;
        }
        Map<String, BigDecimal> counted = new TreeMap<>();
        long total = 0;
        List<Uncounted> mine = new ArrayList<>();
        BiConsumer<String, String> notCounted =
                (deviceClass, why) -> mine.add(new Uncounted(claim, source, deviceClass, why));
        for (DeviceRequest request : requests) {
            if (request == null) {
                continue;
            }
            String name = UserText.quote(request.getName());
            if (request.getFirstAvailable() != null
                    && !request.getFirstAvailable().isEmpty()) {
                notCounted.accept(
                        null,
                        "request " + name + " is a prioritized list (firstAvailable) of "
                                + request.getFirstAvailable().size()
                                + " alternatives: which class and how many devices is decided at allocation");
                continue;
            }
            ExactDeviceRequest exactly = request.getExactly();
            if (exactly == null) {
                notCounted.accept(null, "request " + name + " names no device class");
                continue;
            }
            if (Boolean.TRUE.equals(exactly.getAdminAccess())) {
                continue; // admin access to devices in use by others: it consumes none
            }
            String deviceClass = exactly.getDeviceClassName();
            if (ComputeDomains.CHANNEL_CLASSES.contains(deviceClass)) {
                // an IMEX channel (or daemon) of a ComputeDomain: no accelerator, but it binds the pods to one NVLink
                // domain
                channels.add(source);
                continue;
            }
            Optional<String> resource = classes.resourceOf(deviceClass);
            long count = exactly.getCount() == null ? 1 : exactly.getCount();
            String why = whyNotCounted(name, exactly, resource.isPresent(), count);
            if (why != null) {
                notCounted.accept(deviceClass, why);
                continue;
            }
            total += count;
            counted.merge(resource.get(), BigDecimal.valueOf(count), BigDecimal::add);
        }
        if (total > MAX_DEVICES_PER_CLAIM) {
            uncounted.add(new Uncounted(
                    claim,
                    source,
                    null,
                    "its requests ask for " + total + " devices, more than the " + MAX_DEVICES_PER_CLAIM
                            + " Kubernetes allocates to one claim: none is counted"));
        }
        uncounted.addAll(mine);
        return total > MAX_DEVICES_PER_CLAIM ? Amounts.NONE : new Amounts(counted);
    }

    /** Why a request for devices of one class cannot be counted, or null when it can. */
    private static String whyNotCounted(String name, ExactDeviceRequest exactly, boolean mapped, long count) {
        String mode = exactly.getAllocationMode() == null ? EXACT_COUNT : exactly.getAllocationMode();
        if (ALL.equals(mode)) {
            return "request " + name + " has allocationMode All: every matching device of a node, a number only the"
                    + " node knows";
        }
        if (!EXACT_COUNT.equals(mode)) {
            return "request " + name + " has allocationMode " + UserText.quote(mode) + ", neither ExactCount nor All";
        }
        if (!mapped) {
            boolean cel =
                    exactly.getSelectors() != null && !exactly.getSelectors().isEmpty();
            return "the device class is not mapped to a resource"
                    + (cel ? " (its CEL selectors pick devices; they are not evaluated)" : "");
        }
        if (count < 1 || count > MAX_DEVICES_PER_CLAIM) {
            return "request " + name + " asks for count " + count + ", outside the 1.." + MAX_DEVICES_PER_CLAIM
                    + " devices Kubernetes allocates to one claim";
        }
        return null;
    }

    /**
     * The DRA devices of one gang: each pod template's (read once however many roles share it), the shared claims
     * (each counted once), and everything not counted, without repeats.
     *
     * @param perPod what each pod made from a template gets from claims of its own, by template (identity)
     * @param shared the devices of the claims the gang's pods share, each claim once
     * @param uncounted what is not counted, each once
     * @param channels the ComputeDomain channels the gang's pods claim, each by the object they claim it through, with
     *     how many of the gang's pods claim it there
     */
    public record GangDevices(
            Map<PodSpec, Amounts> perPod, Amounts shared, List<Uncounted> uncounted, Map<String, Long> channels) {

        public static final GangDevices NONE =
                new GangDevices(new IdentityHashMap<>(), Amounts.NONE, List.of(), Map.of());

        public GangDevices {
            uncounted = List.copyOf(uncounted);
            channels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(channels));
        }

        public Amounts perPod(PodSpec spec) {
            return spec == null ? Amounts.NONE : perPod.getOrDefault(spec, Amounts.NONE);
        }

        /** The devices of every pod of the roles together, and the shared claims once. */
        public Amounts total(List<PodRole> roles) {
            Amounts out = shared;
            for (PodRole role : roles) {
                if (role.count() <= 0) {
                    continue;
                }
                Amounts one = perPod(role.spec());
                for (var e : one.values().entrySet()) {
                    out = out.plus(
                            new Amounts(Map.of(e.getKey(), e.getValue().multiply(BigDecimal.valueOf(role.count())))));
                }
            }
            return out;
        }
    }

    /** How many not-counted claims one finding names; the others are counted. */
    static final int NAMED = 3;

    /**
     * One warning per subject of a gang with devices that are not counted, naming the first few claims, their device
     * classes and why, and the key that maps a class.
     */
    public static List<Finding> findings(GangDevices devices, String podGroup, List<ObjectRef> subjects) {
        if (devices.uncounted().isEmpty()) {
            return List.of();
        }
        List<Uncounted> all = devices.uncounted();
        String claims = all.stream().limit(NAMED).map(Uncounted::describe).collect(Collectors.joining("; "))
                + (all.size() > NAMED ? "; and " + (all.size() - NAMED) + " more" : "");
        return WorkloadReason.warnings(
                WorkloadReason.DRA_DEVICES_NOT_COUNTED,
                subjects,
                podGroup,
                "devices the pods of gang " + podGroup
                        + " claim through DRA are not counted when the gang is sized (highest-tier auto,"
                        + " explain): " + claims
                        + "; a DeviceClass of whole accelerators is counted once listed in "
                        + DeviceClasses.KEY + " as deviceClassName=resource");
    }

    /**
     * The counted devices as a PodGroup annotation value ({@link io.topobridge.core.Topobridge#DRA_DEVICES}):
     * {@code resource=count} pairs by resource name, or null when none.
     */
    public static String annotation(Amounts counted) {
        if (counted.isEmpty()) {
            return null;
        }
        return new TreeMap<>(counted.values())
                .entrySet().stream()
                        .map(e -> e.getKey() + "=" + Quantities.canonical(e.getValue(), false))
                        .collect(Collectors.joining(","));
    }

    /** Reads {@link #annotation}'s value back; what cannot be read counts as nothing. */
    public static Amounts parseAnnotation(String value) {
        if (value == null || value.isBlank() || value.length() > 1024) {
            return Amounts.NONE;
        }
        Map<String, BigDecimal> out = new TreeMap<>();
        for (String part : value.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            try {
                BigDecimal amount = Quantities.amount(part.substring(eq + 1).trim());
                if (amount.signum() > 0) {
                    out.merge(part.substring(0, eq).trim(), amount, BigDecimal::add);
                }
            } catch (IllegalArgumentException e) {
                // a value someone else wrote that is no quantity counts as nothing
            }
        }
        return new Amounts(out);
    }

    /** The DRA devices of the roles of one gang in {@code namespace}. */
    public static GangDevices of(List<PodRole> roles, String namespace, WorkloadLookup lookup, DeviceClasses classes) {
        if (roles.stream().noneMatch(r -> r.count() > 0 && claims(r.spec()))) {
            return GangDevices.NONE;
        }
        Map<PodSpec, Amounts> perPod = new IdentityHashMap<>();
        Map<PodSpec, List<String>> channelsBySpec = new IdentityHashMap<>();
        Map<String, Amounts> shared = new LinkedHashMap<>();
        LinkedHashSet<Uncounted> uncounted = new LinkedHashSet<>();
        Map<String, Long> channels = new LinkedHashMap<>();
        for (PodRole role : roles) {
            if (role.count() <= 0 || !claims(role.spec())) {
                continue;
            }
            if (!perPod.containsKey(role.spec())) {
                PodDevices devices = of(role.spec(), namespace, lookup, classes);
                perPod.put(role.spec(), devices.perPod());
                channelsBySpec.put(role.spec(), devices.channels());
                devices.shared().forEach(shared::putIfAbsent);
                uncounted.addAll(devices.uncounted());
            }
            // every pod of the role claims the template's channel: counted per role, however many share the template
            channelsBySpec.get(role.spec()).forEach(c -> channels.merge(c, (long) role.count(), Long::sum));
        }
        Amounts sharedTotal = shared.values().stream().reduce(Amounts.NONE, Amounts::plus);
        return new GangDevices(perPod, sharedTotal, new ArrayList<>(uncounted), channels);
    }
}
