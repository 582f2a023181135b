package io.topobridge.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every relative link of README.md and docs/*.md leads somewhere: the file or folder exists, and a {@code #anchor}
 * names a heading of the Markdown page it points to (as GitHub derives anchors from headings) or an explicit
 * {@code <a id>}. Links out of the repository (http, mailto) are not followed.
 */
class DocsLinksTest {

    private static final Pattern INLINE_LINK =
            Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern REFERENCE_LINK = Pattern.compile("^\\s*\\[[^\\]]+\\]:\\s*(\\S+)", Pattern.MULTILINE);
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            String text = withoutCode(Files.readString(page));
            for (String target : links(text)) {
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue; // http:, https:, mailto:
                }
                checked++;
                String problem = problem(page, target);
                if (problem != null) {
                    broken.add(page + ": (" + target + ") " + problem);
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
        assertThat(checked).as("relative links checked").isGreaterThan(50);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "Auto tier (`highest-tier: auto`)|auto-tier-highest-tier-auto",
                "Diagnosis: doctor, explain, achieved tier|diagnosis-doctor-explain-achieved-tier",
                "Enable `network-topology-aware` in Volcano|enable-network-topology-aware-in-volcano",
                "What the scheduler does with these PodGroups|what-the-scheduler-does-with-these-podgroups",
                "Queues — who may use which|queues--who-may-use-which",
                "`topobridge.admission.*`|topobridgeadmission",
                "Run 2026-12-01, [link](x.md) and **bold**|run-2026-12-01-link-and-bold",
            })
    void anchorsAreDerivedAsGitHubDerivesThem(String heading, String anchor) {
        assertThat(slug(heading)).isEqualTo(anchor);
    }

    private String problem(Path page, String target) throws IOException {
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file = path.isEmpty()
                ? page
                : page.toAbsolutePath().getParent().resolve(path).normalize();
        Path root = Path.of("").toAbsolutePath();
        if (!file.toAbsolutePath().normalize().startsWith(root)) {
            return "leads out of the repository";
        }
        if (!Files.exists(file)) {
            return "no such file or folder";
        }
        if (anchor == null) {
            return null;
        }
        if (!file.toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        Set<String> known = anchors.computeIfAbsent(file.toAbsolutePath().normalize(), f -> {
            try {
                return anchorsOf(Files.readString(f));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return known.contains(anchor) ? null : "no heading with anchor #" + anchor + " there";
    }

    private static Set<String> links(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher inline = INLINE_LINK.matcher(text);
        while (inline.find()) {
            out.add(inline.group(1));
        }
        Matcher reference = REFERENCE_LINK.matcher(text);
        while (reference.find()) {
            out.add(reference.group(1));
        }
        return out;
    }

    /** The page with fenced code blocks and inline code spans blanked, so that code is never read as a link. */
    static String withoutCode(String text) {
        StringBuilder out = new StringBuilder();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                out.append('\n');
                continue;
            }
            out.append(fenced ? "" : line.replaceAll("`[^`]*`", "``")).append('\n');
        }
        return out.toString();
    }

    static Set<String> anchorsOf(String page) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : page.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher explicit = EXPLICIT_ANCHOR.matcher(line);
            while (explicit.find()) {
                out.add(explicit.group(1));
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String base = slug(h.group(2));
                int n = seen.merge(base, 1, Integer::sum) - 1;
                out.add(n == 0 ? base : base + "-" + n);
            }
        }
        return out;
    }

    /** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link counts as its text
                .replaceAll("<[^>]+>", "");
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
                .replace(' ', '-');
    }
}
