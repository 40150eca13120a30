package dev.brace.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/errors.md has a section for every tag a Brace message can carry — each of the processor's
 * {@code Message} and of the runtime's {@code internal.Message} — and each section shows the
 * mistake: a block marked {@code must-not-compile [tag]} for a compile-time tag, a block marked
 * {@code throws SomeException [tag]} for a run-time one. {@link DocSnippetsTest} holds every such
 * block to its marker (it fails to compile with exactly that tag; it runs and throws with that
 * tag), so together they prove each example really produces its tag. The Spring Boot starter's
 * own tags (read from its sources) need a section too; its examples need an application context,
 * which the page describes instead of running.
 */
class ErrorsPageTest {
  private static final String PAGE = "docs/errors.md";
  private static final Pattern HEADING = Pattern.compile("^## `(\\[brace:[a-z0-9-]+])`\\s*$");

  /**
   * Tags no example can produce, each with why.
   */
  private static Map<String, String> withoutExample() {
    Map<String, String> reasons = new LinkedHashMap<>();
    reasons.put("[brace:internal-error]", "a bug in Brace: no code of yours should produce it");
    reasons.put("[brace:unresolved-type]", "javac reports the missing type as well, with an error of its own");
    reasons.put("[brace:retry-after-unreadable]", "a logged warning, not an exception, and no framework version Brace"
        + " is tested with produces it (runtime's FrameworkRetryAfterTest does, with a made-up class)");
    reasons.put("[brace:chaos-off]", "a warning that is logged, never thrown");
    reasons.put("[brace:chaos-active]", "a warning that is logged, never thrown");
    return reasons;
  }

  @Test
  void everyTagHasASectionWhoseExampleIsMarkedWithIt() throws Exception {
    List<String> processorTags = processorTags();
    List<String> runtimeTags = runtimeTags();
    List<String> starterTags = starterTags();
    MarkdownPage page = MarkdownPage.read(RepositoryFiles.root(), PAGE);
    Map<String, List<Snippet>> sections = sections(page);
    Map<String, String> exempt = withoutExample();
    List<String> problems = new ArrayList<>(page.problems());

    for (String tag : new TreeSet<>(concat(concat(processorTags, runtimeTags), starterTags))) {
      List<Snippet> blocks = sections.get(tag);
      if (blocks == null) {
        problems.add("no section ## `" + tag + "`");
        continue;
      }
      if (exempt.containsKey(tag)) {
        continue;
      }
      if (processorTags.contains(tag) && blocks.stream().noneMatch(block ->
          block.marker().kind() == SnippetMarker.Kind.MUST_NOT_COMPILE && block.marker().tags().contains(tag))) {
        problems.add(tag + ": the processor reports it, but its section has no block marked must-not-compile " + tag);
      }
      if (runtimeTags.contains(tag) && blocks.stream().noneMatch(block ->
          block.marker().kind() == SnippetMarker.Kind.THROWS && block.marker().tags().contains(tag))) {
        problems.add(tag + ": the runtime throws it, but its section has no block marked throws SomeException " + tag);
      }
    }
    for (String tag : sections.keySet()) {
      if (!processorTags.contains(tag) && !runtimeTags.contains(tag) && !starterTags.contains(tag)) {
        problems.add("## `" + tag + "`: no message carries this tag any more");
      }
    }
    assertEquals(List.of(), problems, PAGE + " and the messages disagree");
    assertTrue(processorTags.size() > 20 && runtimeTags.size() > 15, "read too few tags: " + processorTags + runtimeTags);
  }

  @Test
  void everySectionSaysHowToFixIt() throws IOException {
    List<String> lines = Files.readAllLines(RepositoryFiles.root().resolve(PAGE), StandardCharsets.UTF_8);
    List<String> withoutFix = new ArrayList<>();
    String section = null;
    boolean fixed = true;
    for (String line : lines) {
      Matcher heading = HEADING.matcher(line);
      if (heading.matches() || line.startsWith("## ")) {
        if (section != null && !fixed) {
          withoutFix.add(section);
        }
        section = heading.matches() ? heading.group(1) : null;
        fixed = false;
      } else if (line.startsWith("**Fix.**")) {
        fixed = true;
      }
    }
    if (section != null && !fixed) {
      withoutFix.add(section);
    }
    assertEquals(List.of(), withoutFix, "sections of " + PAGE + " without a paragraph starting **Fix.**");
  }

  /** @return the blocks of each section headed by a tag, by tag */
  private static Map<String, List<Snippet>> sections(MarkdownPage page) throws IOException {
    Map<String, List<Snippet>> sections = new LinkedHashMap<>();
    for (String line : Files.readAllLines(RepositoryFiles.root().resolve(PAGE), StandardCharsets.UTF_8)) {
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        sections.put(heading.group(1), new ArrayList<>());
      }
    }
    for (Snippet snippet : page.snippets()) {
      Matcher tag = Pattern.compile("\\[brace:[a-z0-9-]+]").matcher(snippet.section());
      if (tag.find() && sections.containsKey(tag.group())) {
        sections.get(tag.group()).add(snippet);
      }
    }
    return sections;
  }

  /** The processor's messages are package-private: read through reflection, as the enum declares them. */
  private static List<String> processorTags() throws ReflectiveOperationException {
    Class<?> messages = Class.forName("dev.brace.processor.Message");
    Method tag = messages.getDeclaredMethod("tag");
    tag.setAccessible(true);
    List<String> tags = new ArrayList<>();
    for (Object message : messages.getEnumConstants()) {
      tags.add((String) tag.invoke(message));
    }
    return tags;
  }

  private static List<String> runtimeTags() {
    List<String> tags = new ArrayList<>();
    for (dev.brace.runtime.internal.Message message : dev.brace.runtime.internal.Message.values()) {
      tags.add(message.tag());
    }
    return tags;
  }

  /** The starter's messages are written in its classes: every tag a string literal there starts with. */
  private static List<String> starterTags() throws IOException {
    Pattern literal = Pattern.compile("\"(\\[brace:[a-z0-9-]+])");
    List<String> tags = new ArrayList<>();
    try (var sources = Files.walk(RepositoryFiles.root().resolve("spring-boot/src/main/java"))) {
      for (var source : (Iterable<java.nio.file.Path>) sources.filter(path -> path.toString().endsWith(".java"))::iterator) {
        Matcher tag = literal.matcher(Files.readString(source, StandardCharsets.UTF_8));
        while (tag.find()) {
          if (!tags.contains(tag.group(1))) {
            tags.add(tag.group(1));
          }
        }
      }
    }
    return tags;
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
