package io.topobridge.image;

import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.CredentialRetriever;
import com.google.cloud.tools.jib.api.ImageReference;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.JibContainer;
import com.google.cloud.tools.jib.api.JibContainerBuilder;
import com.google.cloud.tools.jib.api.LogEvent;
import com.google.cloud.tools.jib.api.RegistryImage;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import com.google.cloud.tools.jib.api.buildplan.Platform;
import com.google.cloud.tools.jib.api.buildplan.Port;
import com.google.cloud.tools.jib.frontend.CredentialRetrieverFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the controller's container image from Quarkus' fast-jar layout ({@code target/quarkus-app}) with Jib,
 * without a Docker daemon, into a Docker-format image archive that {@code docker load}, {@code podman load} and
 * {@code kind load image-archive} accept. {@code ./mvnw package -Pimage} runs {@link #main}; the image test runs
 * {@link #build} against a base image made on the machine.
 *
 * <p>Layers go from the least to the most often changed (dependencies, the launcher, Quarkus' generated code, the
 * application), so a rebuild after a code change replaces only the last ones. Files belong to root and are
 * read-only for the numeric non-root user the image runs as; the JVM sizes its heap from the container's memory
 * limit.
 */
public final class ContainerImage {

    /** The user the process runs as: numeric, so Kubernetes can check {@code runAsNonRoot}; 185 is the UBI Java images' user. */
    public static final String USER = "185";

    public static final String APP_ROOT = "/deployments";
    public static final List<String> ENTRYPOINT = List.of(
            "java",
            // JDK 17 reads the cgroup limits; the default heap (a quarter of the limit) is too small for a lone JVM
            "-XX:MaxRAMPercentage=75.0",
            "-XX:+ExitOnOutOfMemoryError",
            "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
            "-jar",
            APP_ROOT + "/quarkus-run.jar");

    /**
     * What to build.
     *
     * @param app the fast-jar folder ({@code target/quarkus-app})
     * @param base the base image: a registry reference, {@code registry://REF}, {@code docker://REF} or {@code tar://PATH}
     * @param name the name and tag the archive carries ({@code topobridge:0.1.0})
     * @param version the application version, for the image's labels
     * @param output the archive to write
     * @param cache Jib's layer cache folder
     * @param platform {@code os/architecture} to take from a multi-platform base ({@code linux/arm64}); empty: the
     *     base's own, or {@code linux/amd64} from a multi-platform one
     * @param format Docker's archive ({@code docker load}) or an OCI image layout archive
     */
    public record Spec(
            Path app,
            String base,
            String name,
            String version,
            Path output,
            Path cache,
            String platform,
            ImageFormat format) {}

    private ContainerImage() {}

    public static JibContainer build(Spec spec) throws Exception {
        Path app = spec.app();
        for (String required : List.of("quarkus-run.jar", "lib", "quarkus", "app")) {
            if (!Files.exists(app.resolve(required))) {
                throw new IllegalStateException(app.resolve(required) + " is missing: package the application first "
                        + "(./mvnw package) with Quarkus' default fast-jar layout");
            }
        }
        AbsoluteUnixPath root = AbsoluteUnixPath.get(APP_ROOT);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("org.opencontainers.image.title", "topobridge");
        labels.put(
                "org.opencontainers.image.description",
                "Topology-aware gangs for LLM inference workloads under Volcano");
        labels.put("org.opencontainers.image.version", spec.version());
        labels.put("org.opencontainers.image.base.name", spec.base());

        JibContainerBuilder builder = base(spec.base())
                .setFormat(spec.format())
                .addFileEntriesLayer(layer("dependencies", app, root, "lib"))
                .addFileEntriesLayer(layer("launcher", app, root, "quarkus-run.jar"))
                .addFileEntriesLayer(layer("quarkus", app, root, "quarkus"))
                .addFileEntriesLayer(layer("application", app, root, "app", "quarkus-app-dependencies.txt"))
                .setEntrypoint(ENTRYPOINT)
                .setProgramArguments(List.of())
                .setWorkingDirectory(root)
                .setUser(USER)
                .setExposedPorts(Set.of(Port.tcp(8080), Port.tcp(8443)))
                .setLabels(labels);
        if (!spec.platform().isEmpty()) {
            String[] platform = spec.platform().split("/", 2);
            if (platform.length != 2 || platform[0].isEmpty() || platform[1].isEmpty()) {
                throw new IllegalArgumentException("platform '" + spec.platform() + "' is not os/architecture");
            }
            builder.setPlatforms(Set.of(new Platform(platform[1], platform[0])));
        }

        Files.createDirectories(spec.output().toAbsolutePath().getParent());
        Containerizer containerizer = Containerizer.to(
                        TarImage.at(spec.output()).named(spec.name()))
                .setToolName("topobridge-image")
                .setBaseImageLayersCache(spec.cache().resolve("base"))
                .setApplicationLayersCache(spec.cache().resolve("application"))
                .addEventHandler(LogEvent.class, ContainerImage::log);
        return builder.containerize(containerizer);
    }

    private static JibContainerBuilder base(String base) throws Exception {
        if (base.startsWith(Jib.TAR_IMAGE_PREFIX) || base.startsWith(Jib.DOCKER_DAEMON_IMAGE_PREFIX)) {
            return Jib.from(base);
        }
        String reference =
                base.startsWith(Jib.REGISTRY_IMAGE_PREFIX) ? base.substring(Jib.REGISTRY_IMAGE_PREFIX.length()) : base;
        ImageReference image = ImageReference.parse(reference);
        CredentialRetrieverFactory credentials = CredentialRetrieverFactory.forImage(image, ContainerImage::log);
        // anonymous pulls work for public bases; a private one uses the Docker configuration's credentials
        List<CredentialRetriever> retrievers =
                List.of(credentials.dockerConfig(), credentials.wellKnownCredentialHelpers());
        RegistryImage registry = RegistryImage.named(image);
        retrievers.forEach(registry::addCredentialRetriever);
        return Jib.from(registry);
    }

    private static FileEntriesLayer layer(String name, Path app, AbsoluteUnixPath root, String... entries)
            throws Exception {
        FileEntriesLayer.Builder layer = FileEntriesLayer.builder().setName(name);
        for (String entry : entries) {
            Path source = app.resolve(entry);
            if (Files.exists(source)) {
                layer.addEntryRecursive(source, root.resolve(entry));
            }
        }
        return layer.build();
    }

    private static void log(LogEvent event) {
        if (event.getLevel().compareTo(LogEvent.Level.LIFECYCLE) <= 0) {
            System.out.println("[image] " + event.getMessage());
        }
    }

    /**
     * {@code --app DIR --base REF --name NAME:TAG --version V --output FILE --cache DIR}; prints the archive, its
     * image id and digest.
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value pairs, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        for (String key : List.of("app", "base", "name", "version", "output", "cache")) {
            if (!options.containsKey(key)) {
                throw new IllegalArgumentException("missing --" + key);
            }
        }
        Spec spec = new Spec(
                Path.of(options.get("app")),
                options.get("base"),
                options.get("name"),
                options.get("version"),
                Path.of(options.get("output")),
                Path.of(options.get("cache")),
                "",
                ImageFormat.Docker);
        JibContainer image = build(spec);
        System.out.printf(
                "[image] wrote %s (%s, %d MiB): image id %s, digest %s%n",
                spec.output(), spec.name(), Files.size(spec.output()) >> 20, image.getImageId(), image.getDigest());
    }
}
