package io.topobridge.e2e;

import io.topobridge.testing.FreePort;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The AIBrix controller manager of a {@link RealCluster}: its StormService controller, without its webhooks. */
final class AibrixComponent {

    private AibrixComponent() {}

    static void start(RealCluster cluster) {
        int probe = FreePort.find();
        cluster.launch(
                "aibrix-controller-manager",
                List.of(
                        cluster.binary("aibrix-controller-manager"),
                        "--kubeconfig=" + cluster.kubeconfig("aibrix"),
                        "--controllers=stormservice-controller",
                        "--leader-elect=false",
                        "--disable-webhook",
                        "--metrics-bind-address=0",
                        "--health-probe-bind-address=127.0.0.1:" + probe),
                Map.of());
        cluster.waitFor(
                "the AIBrix controller manager",
                Duration.ofSeconds(90),
                () -> cluster.httpOk("http://127.0.0.1:" + probe + "/readyz", null));
    }
}
