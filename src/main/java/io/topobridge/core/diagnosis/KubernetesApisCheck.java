package io.topobridge.core.diagnosis;

import io.topobridge.core.OptionalApi;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The doctor's {@code kubernetes-apis} check: the optional Kubernetes APIs the cluster does not serve. */
final class KubernetesApisCheck {

    static DoctorCheck.Result check(DoctorInputs in) {
        if (in.missingApis().isEmpty()) {
            return DoctorCheck.ok("served: "
                    + Arrays.stream(OptionalApi.values())
                            .map(a -> a.groupVersion() + " " + String.join(", ", a.resources()))
                            .collect(Collectors.joining("; ")));
        }
        // said once at the bridge's start too; a cluster upgrade, not the bridge, brings the API
        return new DoctorCheck.Result(
                DoctorCheck.Status.WARNING,
                in.missingApis().stream().map(OptionalApi::missing).collect(Collectors.joining("; ")),
                List.of());
    }
}
