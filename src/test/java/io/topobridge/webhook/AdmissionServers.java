package io.topobridge.webhook;

/** Test access to a running {@link AdmissionServer}. */
public final class AdmissionServers {

    private AdmissionServers() {}

    /** The port the webhook server listens on, as its health details show it (-1 when not serving). */
    public static int port(AdmissionServer server) {
        return server.details().get("port") instanceof Integer port ? port : -1;
    }
}
