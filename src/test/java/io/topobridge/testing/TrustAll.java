package io.topobridge.testing;

import java.security.cert.X509Certificate;
import javax.net.ssl.X509TrustManager;

/** Trusts any server certificate: for tests of what a server does with a connection, not of trust. */
public final class TrustAll implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
