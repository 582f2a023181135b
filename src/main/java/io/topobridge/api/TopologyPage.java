package io.topobridge.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The live topology page at {@code /topology}: plain HTML and JavaScript that polls {@code /api/topology}. */
@Path("/topology")
public class TopologyPage {

    @GET
    @Produces(MediaType.TEXT_HTML)
    public String page() {
        try (InputStream in = TopologyPage.class.getResourceAsStream("/topology/page.html")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
