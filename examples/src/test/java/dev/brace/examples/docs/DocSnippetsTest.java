package dev.brace.examples.docs;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

/**
 * Every {@code java} block of README.md, the other root pages, docs/*.md and docs/guide/*.md behaves as its marker
 * says (see {@link SnippetMarker}; the conventions are in CONTRIBUTING.md): one test per block,
 * named after its page and line. The blocks that must compile are compiled in one javac run, with
 * the Brace processor; those that must not, in a second (those that show {@code
 * [brace:reactor-missing]} in a third, on the class path without brace-reactor). A failure names the page, the line and
 * column, and javac's message, with the page's line under it.
 *
 * <p>The files javac read are kept in {@code examples/target/doc-snippets} for a closer look.
 */
class DocSnippetsTest {
  private static final Path ROOT = RepositoryFiles.root();
  private static final Path WORK = Path.of("target", "doc-snippets").toAbsolutePath();
  private static final String REACTOR_MISSING = "[brace:reactor-missing]";
  /** brace-reactor's class whose presence the processor checks. */
  private static final String REACTOR_ENTRY_CLASS = "dev.brace.reactor.ReactorCalls";

  @TestFactory
  List<DynamicNode> everyJavaBlockOfTheDocsBehavesAsMarked() throws IOException {
    deleteRecursively(WORK);
    List<MarkdownPage> pages = new ArrayList<>();
    for (String page : RepositoryFiles.pages(ROOT)) {
      pages.add(MarkdownPage.read(ROOT, page));
    }
    assertFalse(pages.stream().allMatch(page -> page.snippets().isEmpty()),
        "no ```java block in any page under " + ROOT + "; is brace.repository.root right?");

    long started = System.nanoTime();
    SnippetBatch accepted = SnippetBatch.compile(
        blocks(pages, SnippetMarker.Kind.COMPILES, SnippetMarker.Kind.IMPORTS, SnippetMarker.Kind.THROWS), WORK.resolve("accepted"), false);
    Map<Snippet, List<String>> mistakes = blocks(pages, SnippetMarker.Kind.MUST_NOT_COMPILE);
    Map<Snippet, List<String>> withoutReactor = new LinkedHashMap<>();
    for (Snippet snippet : List.copyOf(mistakes.keySet())) {
      if (snippet.marker().tags().contains(REACTOR_MISSING)) {
        withoutReactor.put(snippet, mistakes.remove(snippet));
      }
    }
    SnippetBatch rejected = SnippetBatch.compile(mistakes, WORK.resolve("rejected"), true);
    // brace-reactor is on this module's class path (the WebClient example needs it); a block that
    // shows its absence is compiled as the build of a user who has not added it.
    SnippetBatch rejectedWithoutReactor = SnippetBatch.compile(withoutReactor, WORK.resolve("rejected-without-reactor"), true,
        TestClassPath.without(REACTOR_ENTRY_CLASS));
    printSummary(pages, (System.nanoTime() - started) / 1_000_000);

    List<DynamicNode> tests = new ArrayList<>();
    for (MarkdownPage page : pages) {
      List<DynamicNode> pageTests = new ArrayList<>();
      if (!page.problems().isEmpty()) {
        pageTests.add(failing(page.path() + ": markers", String.join("\n", page.problems())));
      }
      long importBlocks = page.snippets().stream().filter(s -> s.marker().kind() == SnippetMarker.Kind.IMPORTS).count();
      if (importBlocks > 1) {
        pageTests.add(failing(page.path() + ": imports", page.path() + " has " + importBlocks
            + " blocks marked imports; a page states its imports once"));
      }
      for (Snippet snippet : page.snippets()) {
        pageTests.add(DynamicTest.dynamicTest(snippet.where() + " " + snippet.marker().describe(), () -> {
          List<String> failures = new ArrayList<>();
          switch (snippet.marker().kind()) {
            case FRAGMENT:
              Fragments.check(ROOT, snippet).ifPresent(failures::add);
              break;
            case MUST_NOT_COMPILE:
              failures.addAll(rejectedForItsReason(withoutReactor.containsKey(snippet) ? rejectedWithoutReactor : rejected, snippet));
              break;
            case THROWS:
              failures.addAll(compiles(accepted, snippet));
              if (failures.isEmpty()) {
                failures.addAll(throwsItsTag(accepted, snippet));
              }
              break;
            default:
              failures.addAll(compiles(accepted, snippet));
          }
          if (snippet.marker().checkedBy() != null) {
            RepositoryFiles.checkTest(ROOT, snippet.marker().checkedBy()).ifPresent(problem -> failures.add(snippet.where() + ": " + problem));
          }
          if (!failures.isEmpty()) {
            String report = String.join("\n", failures);
            if (accepted.processorFailed() && report.matches("(?s).*symbol:\\s+(class|variable) Resilient.*")) {
              report += "\n(The Brace processor reported an error and generates no wrapper for an interface at fault: fix that first.)";
            }
            throw failure(report);
          }
        }));
      }
      tests.add(DynamicContainer.dynamicContainer(page.path(), pageTests));
    }
    List<String> outside = new ArrayList<>(accepted.errorsOutsideBlocks());
    outside.addAll(rejected.errorsOutsideBlocks());
    outside.addAll(rejectedWithoutReactor.errorsOutsideBlocks());
    if (!outside.isEmpty()) {
      tests.add(failing("errors in no block (generated code, or javac about no file)", String.join("\n", outside)));
    }
    return tests;
  }

  private static Map<Snippet, List<String>> blocks(List<MarkdownPage> pages, SnippetMarker.Kind... kinds) {
    Map<Snippet, List<String>> blocks = new LinkedHashMap<>();
    for (MarkdownPage page : pages) {
      for (Snippet snippet : page.snippets()) {
        if (List.of(kinds).contains(snippet.marker().kind())) {
          blocks.put(snippet, page.imports());
        }
      }
    }
    return blocks;
  }

  private static List<String> compiles(SnippetBatch batch, Snippet snippet) {
    if (batch.unreadable(snippet) != null) {
      return List.of(batch.unreadable(snippet));
    }
    List<String> errors = batch.describedErrors(snippet);
    return errors.isEmpty()
        ? List.of()
        : List.of(snippet.where() + ": the block does not compile (section \"" + snippet.section() + "\"):\n" + String.join("\n", errors));
  }

  /** It fails, and only for the reasons its marker names: every error carries one of its tags, each tag appears. */
  private static List<String> rejectedForItsReason(SnippetBatch batch, Snippet snippet) throws IOException {
    if (batch.unreadable(snippet) != null) {
      return List.of(batch.unreadable(snippet));
    }
    List<String> tags = snippet.marker().tags();
    List<String> errors = batch.describedErrors(snippet);
    // Kept for the author who quotes the message in the page.
    Files.writeString(WORK.resolve("rejected").resolve(SnippetSource.identifier(snippet.where()) + ".errors.txt"),
        String.join("\n", errors) + "\n");
    if (errors.isEmpty()) {
      return List.of(snippet.where() + ": the block is marked must-not-compile " + String.join(" ", tags) + ", but it compiles");
    }
    List<String> problems = new ArrayList<>();
    for (String error : errors) {
      if (tags.stream().noneMatch(error::contains)) {
        problems.add("an error without " + String.join(" or ", tags) + ":\n" + error);
      }
    }
    for (String tag : tags) {
      if (errors.stream().noneMatch(error -> error.contains(tag))) {
        problems.add("no error carries " + tag + "; the errors are:\n" + String.join("\n", errors));
      }
    }
    return problems.isEmpty() ? List.of() : List.of(snippet.where() + ": the block must fail to compile for the"
        + " reason its marker gives, and only for that one:\n" + String.join("\n", problems));
  }

  /**
   * It runs and ends with the exception its marker names, whose message starts with the marker's
   * tag, or lists a problem under it on a line of its own.
   */
  private static List<String> throwsItsTag(SnippetBatch batch, Snippet snippet) throws Exception {
    Throwable thrown = batch.run(snippet);
    String expected = snippet.marker().exception() + " " + snippet.marker().tags().get(0);
    if (thrown == null) {
      return List.of(snippet.where() + ": the block is marked throws " + expected + ", but it ran to its end");
    }
    // Kept for the author who quotes the message in the page.
    Path kept = WORK.resolve("thrown").resolve(SnippetSource.identifier(snippet.where()) + ".txt");
    Files.createDirectories(kept.getParent());
    Files.writeString(kept, thrown.getClass().getName() + ": " + thrown.getMessage() + "\n");
    boolean named = false;
    for (Class<?> type = thrown.getClass(); type != null; type = type.getSuperclass()) {
      named |= type.getSimpleName().equals(snippet.marker().exception());
    }
    String message = String.valueOf(thrown.getMessage());
    String tag = snippet.marker().tags().get(0) + " ";
    // A refused reconfiguration lists each refused setting on a line of its own, under that setting's tag.
    if (named && (message.startsWith(tag) || message.contains("\n  " + tag))) {
      return List.of();
    }
    return List.of(snippet.where() + ": the block must end with " + expected + "…, but it ended with "
        + thrown.getClass().getName() + ": " + message);
  }

  private static DynamicTest failing(String name, String report) {
    return DynamicTest.dynamicTest(name, () -> {
      throw failure(report);
    });
  }

  /** The message is the report: the harness's own stack would only push it out of sight. */
  private static AssertionFailedError failure(String message) {
    AssertionFailedError failure = new AssertionFailedError(message);
    failure.setStackTrace(new StackTraceElement[0]);
    return failure;
  }

  private static void printSummary(List<MarkdownPage> pages, long millis) {
    for (MarkdownPage page : pages) {
      Map<SnippetMarker.Kind, Long> kinds = page.snippets().stream()
          .collect(Collectors.groupingBy(s -> s.marker().kind(), LinkedHashMap::new, Collectors.counting()));
      System.out.println("[doc snippets] " + page.path() + ": " + page.snippets().size() + " java blocks " + kinds);
    }
    System.out.println("[doc snippets] compiled in " + millis + " ms");
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.delete(file);
      }
    }
  }
}
