package dev.brace.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every error a user can meet carries a tag they can search docs/errors.md for: each {@code
 * ConfigurationException} the runtime throws, and the argument and state errors of the classes a
 * user calls ({@code Registry}, {@code Stack}, {@code Brace}, the config builders), read from the
 * sources so a new throw site without a {@link Message} fails here.
 */
class MessageTagsTest {
  private static final Path SOURCES = Path.of("src", "main", "java", "dev", "brace", "runtime");
  private static final Pattern THROWN =
      Pattern.compile("new (ConfigurationException|IllegalArgumentException|IllegalStateException)\\(\\s*([^\\s(]+)");
  /** Where argument and state errors reach users, so they are tagged too. */
  private static final Set<String> USER_FACING = Set.of(
      "Registry.java", "Stack.java", "Brace.java", "EventKind.java", "config/ConfigBuilder.java", "generated/CallKeys.java");

  @Test
  void everyConfigurationExceptionAndEveryErrorOfTheClassesUsersCallIsTagged() throws IOException {
    List<String> untagged = new ArrayList<>();
    int checked = 0;
    for (Path file : sources()) {
      String relative = SOURCES.relativize(file).toString().replace('\\', '/');
      String text = Files.readString(file, StandardCharsets.UTF_8);
      Matcher thrown = THROWN.matcher(text);
      while (thrown.find()) {
        boolean configuration = thrown.group(1).equals("ConfigurationException");
        if (!configuration && !USER_FACING.contains(relative)) {
          continue;
        }
        checked++;
        String argument = thrown.group(2);
        // The (kind, instance, attribute, value, accepted) constructor tags its message itself.
        boolean tagged = argument.startsWith("Message.") || (configuration && argument.equals("kind,"));
        if (!tagged) {
          untagged.add(relative + ":" + line(text, thrown.start()) + ": new " + thrown.group(1) + "(" + argument + " …");
        }
      }
    }
    assertTrue(checked > 10, "the scan found only " + checked + " throw sites under " + SOURCES.toAbsolutePath());
    assertEquals(List.of(), untagged, "throw sites whose message does not come from internal.Message");
  }

  @Test
  void tagsAreKebabCaseAndEachConstantFormatsWithItsTag() {
    Set<String> formats = new HashSet<>();
    for (Message message : Message.values()) {
      assertTrue(message.tag().matches("\\[brace:[a-z]+(-[a-z]+)*]"), message.tag());
      assertTrue(message.format(new Object[20]).startsWith(message.tag() + " "), message.name());
      assertTrue(formats.add(message.format(new Object[20])), message + " says what another constant says");
    }
  }

  private static List<Path> sources() throws IOException {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      return files.filter(file -> file.toString().endsWith(".java")).sorted().collect(Collectors.toList());
    }
  }

  private static int line(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
