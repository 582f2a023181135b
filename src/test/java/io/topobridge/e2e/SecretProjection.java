package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;

/**
 * Does for a controller running on this machine what a kubelet does for its pod: keeps a Secret projected as files
 * into a folder, each key one file replaced atomically. The certificate rotators of LeaderWorkerSet and Kueue fill
 * their Secret and then wait until their webhook server's folder holds the same certificate.
 */
final class SecretProjection implements AutoCloseable {

    private final SharedIndexInformer<Secret> informer;

    private SecretProjection(SharedIndexInformer<Secret> informer) {
        this.informer = informer;
    }

    /** Projects the Secret {@code namespace/name} into {@code dir} from now on, as it is and as it changes. */
    static SecretProjection start(KubernetesClient client, String namespace, String name, Path dir) {
        return new SecretProjection(client.secrets()
                .inNamespace(namespace)
                .withName(name)
                .inform(
                        new ResourceEventHandler<>() {
                            @Override
                            public void onAdd(Secret secret) {
                                project(secret, dir);
                            }

                            @Override
                            public void onUpdate(Secret old, Secret secret) {
                                project(secret, dir);
                            }

                            @Override
                            public void onDelete(Secret secret, boolean unknown) {}
                        },
                        0));
    }

    private static void project(Secret secret, Path dir) {
        if (secret.getData() == null) {
            return;
        }
        try {
            Files.createDirectories(dir);
            for (var e : secret.getData().entrySet()) {
                Path tmp = dir.resolve("." + e.getKey() + ".tmp");
                Files.write(tmp, Base64.getDecoder().decode(e.getValue()));
                Files.move(
                        tmp,
                        dir.resolve(e.getKey()),
                        StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        informer.close();
    }
}
