package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.OptionalApi;
import java.net.HttpURLConnection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Asks the API server's discovery which {@link OptionalApi}s it does not serve. */
public final class ServedApis {

    /**
     * Whether {@code api} is known not to be served: discovery answers 404 for its group version, or lists that group
     * version's resources without one of those the bridge uses. Any other outcome (no answer, an empty list) is no
     * evidence, so the API is taken as served and its use fails, if it does, where it is used.
     */
    public static boolean missing(KubernetesClient client, OptionalApi api) {
        try {
            APIResourceList list = client.getApiResources(api.groupVersion());
            if (list == null) {
                return true;
            }
            List<String> served = list.getResources() == null
                    ? List.of()
                    : list.getResources().stream().map(APIResource::getName).toList();
            return !served.isEmpty() && !served.containsAll(api.resources());
        } catch (KubernetesClientException e) {
            return e.getCode() == HttpURLConnection.HTTP_NOT_FOUND;
        }
    }

    /** Every optional API the server does not serve. */
    public static Set<OptionalApi> missing(KubernetesClient client) {
        Set<OptionalApi> out = EnumSet.noneOf(OptionalApi.class);
        for (OptionalApi api : OptionalApi.values()) {
            if (missing(client, api)) {
                out.add(api);
            }
        }
        return out;
    }
}
