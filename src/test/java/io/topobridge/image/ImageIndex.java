package io.topobridge.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Joins single-platform OCI image layout archives (what Jib writes for {@link ContainerImage} with the OCI format)
 * into one archive whose {@code index.json} names an image index of every platform, as a registry's multi-platform
 * image is: {@code skopeo copy --all oci-archive:FILE docker://REF} pushes it whole, and a runtime pulls the
 * manifest of its own platform. Layers the platforms share (the application's) are stored once.
 */
public final class ImageIndex {

    public static final String INDEX_TYPE = "application/vnd.oci.image.index.v1+json";
    public static final String MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";
    public static final String REF_NAME = "org.opencontainers.image.ref.name";
    /** What containerd's image import reads as the image's full name. */
    public static final String CONTAINERD_NAME = "io.containerd.image.name";

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Indexes, manifests and configurations are far smaller; layers are larger or copied without being read. */
    private static final long SMALL = 1 << 20;

    private ImageIndex() {}

    /**
     * Writes {@code output} from the single-platform {@code archives}, naming the index {@code name} ({@code
     * repository:tag}); fails when two archives are of the same platform or one is not a one-image OCI layout.
     */
    public static void write(List<Path> archives, String name, Path output) throws IOException {
        Map<String, byte[]> blobs = new TreeMap<>();
        ArrayNode manifests = JSON.createArrayNode();
        List<String> platforms = new ArrayList<>();
        for (Path archive : archives) {
            Map<String, byte[]> entries = read(archive, SMALL);
            JsonNode index = JSON.readTree(required(entries, "index.json", archive));
            if (index.path("manifests").size() != 1) {
                throw new IllegalArgumentException(
                        archive + " holds " + index.path("manifests").size() + " images; one per archive is expected");
            }
            JsonNode descriptor = index.path("manifests").get(0);
            String digest = descriptor.path("digest").asText();
            JsonNode manifest = JSON.readTree(required(entries, blob(digest), archive));
            JsonNode config = JSON.readTree(required(
                    entries, blob(manifest.path("config").path("digest").asText()), archive));
            String platform = config.path("os").asText() + "/"
                    + config.path("architecture").asText();
            if (platforms.contains(platform)) {
                throw new IllegalArgumentException(archive + " is a second image for " + platform);
            }
            platforms.add(platform);
            ObjectNode entry = manifests.addObject();
            entry.put("mediaType", MANIFEST_TYPE);
            entry.put("digest", digest);
            entry.put("size", descriptor.path("size").asLong());
            ObjectNode os = entry.putObject("platform");
            os.put("architecture", config.path("architecture").asText());
            os.put("os", config.path("os").asText());
        }
        ObjectNode imageIndex = JSON.createObjectNode();
        imageIndex.put("schemaVersion", 2);
        imageIndex.put("mediaType", INDEX_TYPE);
        imageIndex.set("manifests", manifests);
        byte[] imageIndexBytes = JSON.writeValueAsBytes(imageIndex);
        String imageIndexDigest = "sha256:" + sha256(imageIndexBytes);
        blobs.put(blob(imageIndexDigest), imageIndexBytes);

        ObjectNode top = JSON.createObjectNode();
        top.put("schemaVersion", 2);
        top.put("mediaType", INDEX_TYPE);
        ObjectNode named = top.putArray("manifests").addObject();
        named.put("mediaType", INDEX_TYPE);
        named.put("digest", imageIndexDigest);
        named.put("size", imageIndexBytes.length);
        ObjectNode annotations = named.putObject("annotations");
        annotations.put(REF_NAME, name.substring(name.lastIndexOf(':') + 1));
        annotations.put(CONTAINERD_NAME, name);

        Files.createDirectories(output.toAbsolutePath().getParent());
        try (OutputStream file = Files.newOutputStream(output);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(file)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            add(tar, "oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}".getBytes(StandardCharsets.UTF_8));
            add(tar, "index.json", JSON.writeValueAsBytes(top));
            for (var blob : blobs.entrySet()) {
                add(tar, blob.getKey(), blob.getValue());
            }
            Set<String> written = new HashSet<>(blobs.keySet());
            for (Path archive : archives) {
                copyBlobs(archive, tar, written);
            }
        }
    }

    /** Copies the archive's blobs not yet in {@code written} (layers shared by the platforms go once). */
    private static void copyBlobs(Path archive, TarArchiveOutputStream out, Set<String> written) throws IOException {
        try (InputStream file = Files.newInputStream(archive);
                TarArchiveInputStream tar = new TarArchiveInputStream(file)) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                String path = entry.getName().replaceFirst("^\\./", "");
                if (entry.isFile() && path.startsWith("blobs/") && written.add(path)) {
                    TarArchiveEntry copy = new TarArchiveEntry(path);
                    copy.setSize(entry.getSize());
                    copy.setMode(0644);
                    copy.setModTime(0);
                    out.putArchiveEntry(copy);
                    tar.transferTo(out);
                    out.closeArchiveEntry();
                }
            }
        }
    }

    /** The tar path of the blob {@code sha256:HEX}. */
    public static String blob(String digest) {
        return "blobs/" + digest.replace(':', '/');
    }

    /** The files of a tar archive of at most {@code maxBytes} each (its JSON, not its layers), by path. */
    public static Map<String, byte[]> read(Path archive, long maxBytes) throws IOException {
        Map<String, byte[]> entries = new TreeMap<>();
        try (InputStream file = Files.newInputStream(archive);
                TarArchiveInputStream tar = new TarArchiveInputStream(file)) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (entry.isFile() && entry.getSize() <= maxBytes) {
                    entries.put(entry.getName().replaceFirst("^\\./", ""), tar.readAllBytes());
                }
            }
        }
        return entries;
    }

    private static byte[] required(Map<String, byte[]> entries, String path, Path archive) {
        byte[] bytes = entries.get(path);
        if (bytes == null) {
            throw new IllegalArgumentException(archive + " has no " + path + ": not an OCI image layout archive");
        }
        return bytes;
    }

    private static void add(TarArchiveOutputStream tar, String path, byte[] bytes) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(path);
        entry.setSize(bytes.length);
        entry.setMode(0644);
        entry.setModTime(0);
        tar.putArchiveEntry(entry);
        tar.write(bytes);
        tar.closeArchiveEntry();
    }

    /** The SHA-256 of a file, in hex. */
    public static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = digest();
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        }
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }
}
