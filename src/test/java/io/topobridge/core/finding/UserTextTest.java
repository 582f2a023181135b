package io.topobridge.core.finding;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How user text appears in messages: quoted values, excerpts of foreign messages, identifiers and whole lines
 * are bounded, carry no character that breaks or disguises a line, and lose nothing while they fit.
 */
class UserTextTest {

    private static final String MIB = "a".repeat(1 << 20);

    static Stream<Arguments> quoted() {
        return Stream.of(
                Arguments.of("plain value", "rack", "\"rack\""),
                Arguments.of("empty", "", "\"\""),
                Arguments.of("spaces kept", " 2 ", "\" 2 \""),
                Arguments.of("newline", "2\nINFO Node/n1 forged", "\"2\\nINFO Node/n1 forged\""),
                Arguments.of("carriage return and tab", "a\rb\tc", "\"a\\rb\\tc\""),
                Arguments.of("ANSI escape", "\u001b[31mred", "\"\\u001b[31mred\""),
                Arguments.of("NUL and DEL", "a\u0000b\u007f", "\"a\\u0000b\\u007f\""),
                Arguments.of("next line (C1 control)", "a\u0085b", "\"a\\u0085b\""),
                Arguments.of("line separator", "a\u2028b", "\"a\\u2028b\""),
                Arguments.of("paragraph separator", "a\u2029b", "\"a\\u2029b\""),
                Arguments.of("bidi override", "abc\u202edcba", "\"abc\\u202edcba\""),
                Arguments.of("bidi isolate", "\u2066x\u2069", "\"\\u2066x\\u2069\""),
                Arguments.of("zero-width space", "ra\u200bck", "\"ra\\u200bck\""),
                Arguments.of("byte order mark", "\ufeffrack", "\"\\ufeffrack\""),
                Arguments.of("unpaired surrogate", "a\ud800b", "\"a\\ud800b\""),
                Arguments.of("tag character (supplementary format)", "a\udb40\udc41", "\"a\\udb40\\udc41\""),
                Arguments.of("quote and backslash", "say \"hi\" \\n", "\"say \\\"hi\\\" \\\\n\""),
                Arguments.of("accents and emoji are text", "caf\u00e9 \ud83d\ude80", "\"caf\u00e9 \ud83d\ude80\""),
                Arguments.of("exactly the limit", "b".repeat(100), "\"" + "b".repeat(100) + "\""),
                Arguments.of("one over the limit", "b".repeat(101), "\"" + "b".repeat(100) + "\u2026\" (101 chars)"),
                Arguments.of("1 MiB", MIB, "\"" + "a".repeat(100) + "\u2026\" (1048576 chars)"),
                Arguments.of(
                        "an escape is never split",
                        "c".repeat(99) + "\n",
                        "\"" + "c".repeat(99) + "\u2026\" (100 chars)"),
                Arguments.of(
                        "a surrogate pair is never split",
                        "d".repeat(99) + "\ud83d\ude80",
                        "\"" + "d".repeat(99) + "\u2026\" (101 chars)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("quoted")
    void quote(String name, String value, String expected) {
        assertThat(UserText.quote(value)).isEqualTo(expected);
    }

    @Test
    void excerptKeepsTheTextUnquotedAndCutsLongerOnes() {
        assertThat(UserText.excerpt("Cannot deserialize \"x\"\n at [Source: UNKNOWN]"))
                .isEqualTo("Cannot deserialize \"x\"\\n at [Source: UNKNOWN]");
        assertThat(UserText.excerpt(MIB)).isEqualTo("a".repeat(UserText.MAX_EXCERPT) + "\u2026 (1048576 chars)");
        assertThat(UserText.excerpt(null)).isEqualTo("no details");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "vllm",
                "gb200-r01-t01",
                "Upper-Case-Node",
                "<unnamed>",
                "example.com/a-prefix-of-the-longest-kind/and-a-name-of-sixty-three-characters-abcdefghijklmnopqrstuvw"
            })
    void identifiersAClusterCouldHoldAreUnchanged(String name) {
        assertThat(UserText.identifier(name)).isSameAs(name);
        String longest = "n".repeat(253) + "/" + "k".repeat(63);
        assertThat(UserText.identifier(longest)).isSameAs(longest);
    }

    @Test
    void identifiersNoClusterCouldHoldAreEscapedAndCut() {
        assertThat(UserText.identifier("n1\nWARNING Node/n2")).isEqualTo("n1\\nWARNING Node/n2");
        assertThat(UserText.identifier(MIB)).isEqualTo("a".repeat(100) + "\u2026 (1048576 chars)");
    }

    @Test
    void aLineIsEscapedButKeepsQuotedValuesAsTheyAre() {
        assertThat(UserText.line("x=\"a\\nb\" then\nnext", 1024)).isEqualTo("x=\"a\\nb\" then\\nnext");
        String clean = "plain message";
        assertThat(UserText.line(clean, 1024)).isSameAs(clean);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a", "\u00e9", "\u20ac", "\ud83d\ude80", "\n"})
    void aLineIsCutWithinItsBytesAtACharacterBoundary(String unit) {
        String line = UserText.line(unit.repeat(5000), UserText.MAX_MESSAGE_BYTES);
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertThat(bytes.length)
                .isLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES)
                .isGreaterThan(UserText.MAX_MESSAGE_BYTES - 8);
        assertThat(line).endsWith("\u2026");
        assertThat(new String(bytes, StandardCharsets.UTF_8))
                .as("valid UTF-8, no half character")
                .isEqualTo(line);
        assertThat(unsafeCharacters(line)).isZero();
    }

    /** Whatever the text, a quote shows no unsafe character, stays bounded and, while it fits, can be read back exactly. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 7, 42, 1234, 99991})
    void quotesAreBoundedOneLineAndLossless(long seed) {
        Random random = new Random(seed);
        int[] hostile = {
            '\n', '\r', '\t', 0, 0x1b, 0x7f, 0x85, 0x2028, 0x2029, 0x202e, 0x2066, 0x200b, 0xfeff, 0xd800, 0xdfff, '"',
            '\\', 0xe0041, 0x1f680, 'a', 'Z', '0', '-', '.', ' ', 0xe9
        };
        for (int i = 0; i < 2000; i++) {
            StringBuilder value = new StringBuilder();
            int length = random.nextInt(i % 10 == 0 ? 400 : 60);
            for (int j = 0; j < length; j++) {
                value.appendCodePoint(hostile[random.nextInt(hostile.length)]);
            }
            String quoted = UserText.quote(value.toString());
            assertThat(unsafeCharacters(quoted))
                    .as("seed %d value %s", seed, quoted)
                    .isZero();
            assertThat(quoted).startsWith("\"");
            boolean cut = quoted.endsWith(" chars)");
            int body = quoted.lastIndexOf('"') - 1;
            assertThat(body).as(quoted).isLessThanOrEqualTo(UserText.MAX_VALUE + (cut ? 1 : 0));
            if (!cut) {
                assertThat(unquote(quoted)).isEqualTo(value.toString());
            } else {
                assertThat(quoted).endsWith("\u2026\" (" + value.length() + " chars)");
                String shown = unquote(quoted.substring(0, quoted.lastIndexOf('\u2026')) + "\"");
                assertThat(value.toString()).startsWith(shown);
            }
        }
    }

    private static long unsafeCharacters(String text) {
        return text.codePoints()
                .filter(cp -> switch (Character.getType(cp)) {
                    case Character.CONTROL,
                            Character.FORMAT,
                            Character.LINE_SEPARATOR,
                            Character.PARAGRAPH_SEPARATOR,
                            Character.SURROGATE -> true;
                    default -> false;
                })
                .count();
    }

    /** Reads a quote back: the inverse of the escaping, as a reader of the message would. */
    private static String unquote(String quoted) {
        StringBuilder out = new StringBuilder();
        for (int i = 1; i < quoted.length() - 1; i++) {
            char c = quoted.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char next = quoted.charAt(++i);
            switch (next) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    out.append((char) Integer.parseInt(quoted.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> out.append(next);
            }
        }
        return out.toString();
    }
}
