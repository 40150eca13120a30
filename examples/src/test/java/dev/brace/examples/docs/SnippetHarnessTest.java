package dev.brace.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness fails where a block is wrong, and says where: the proof that DocSnippetsTest can fail. */
class SnippetHarnessTest {
  @TempDir
  Path root;

  private MarkdownPage page(String text) throws IOException {
    Files.writeString(root.resolve("page.md"), text);
    return MarkdownPage.read(root, "page.md");
  }

  @Test
  void aBlockInAListItemIsReadWithItsSectionMarkerAndLines() throws IOException {
    MarkdownPage page = page(String.join("\n",
        "# Title",
        "## Setup",
        "1. Step:",
        "   <!-- snippet: fragment of Some.java; checked by SomeTest.java#works -->",
        "   ```java",
        "   int a = 1;",
        "   ```",
        "```bash",
        "## not a heading inside a fence",
        "```"));

    Snippet snippet = page.snippets().get(0);
    assertEquals(1, page.snippets().size());
    assertEquals("Setup", snippet.section());
    assertEquals(5, snippet.fenceLine());
    assertEquals(List.of("int a = 1;"), snippet.lines());
    assertEquals(new SnippetMarker(SnippetMarker.Kind.FRAGMENT, "Some.java", List.of(), "SomeTest.java#works", null), snippet.marker());
  }

  @Test
  void aMalformedOrStrayMarkerIsAProblemOfThePage() throws IOException {
    MarkdownPage page = page(String.join("\n",
        "<!-- snippet: fragmnet of Some.java -->",
        "```java",
        "int a = 1;",
        "```",
        "<!-- snippet: imports -->",
        "",
        "```java",
        "int b = 2;",
        "```",
        "<!-- snippet: must-not-compile -->",
        "```java",
        "```"));

    assertEquals(3, page.problems().size(), page.problems().toString());
    assertTrue(page.problems().get(0).startsWith("page.md:1: unknown clause 'fragmnet of Some.java'"), page.problems().get(0));
    assertTrue(page.problems().get(1).startsWith("page.md:5: a snippet marker stands on the line right above"), page.problems().get(1));
    assertTrue(page.problems().get(2).contains("must-not-compile names the tag"), page.problems().get(2));
  }

  @Test
  void aFragmentLineMissingFromItsFileIsReportedAtItsPageLine() throws IOException {
    Files.writeString(root.resolve("Some.java"), "class Some {\n  int permits = 400;\n  int other;\n}\n");
    MarkdownPage page = page(String.join("\n",
        "<!-- snippet: fragment of Some.java -->",
        "```java",
        "class Some {",
        "  // …",
        "  int permits = 20;",
        "}",
        "```"));

    Optional<String> problem = Fragments.check(root, page.snippets().get(0));

    assertTrue(problem.orElseThrow().startsWith("page.md:5: this line of the fragment is not in Some.java after its line 1"), problem.get());
    assertEquals(Optional.empty(), Fragments.check(root, new Snippet("page.md", 2, 0, "", page.snippets().get(0).marker(),
        List.of("class Some {", "  int   other;", "}"))));
  }

  @Test
  void errorsComeBackAtTheirPageLineAndColumnAndBlocksOfASectionShareTypes() throws IOException {
    MarkdownPage page = page(String.join("\n",
        "## Clients",
        "```java",
        "public interface QuotesClient {",
        "  @dev.brace.Retry(maxAttempts = 2)",
        "  String quote(String symbol);",
        "}",
        "```",
        "Use it:",
        "```java",
        "QuotesClient quotes = ResilientQuotesClient.wrap(symbol -> \"1.0\");",
        "int price = quotes.quote(\"X\");",
        "```"));

    SnippetBatch batch = SnippetBatch.compile(
        Map.of(page.snippets().get(0), List.of(), page.snippets().get(1), List.of()), root.resolve("work"), false);

    assertEquals(List.of(), batch.describedErrors(page.snippets().get(0)));
    List<String> errors = batch.describedErrors(page.snippets().get(1));
    assertEquals(1, errors.size(), errors.toString());
    assertTrue(errors.get(0).startsWith("page.md:11:25: error: incompatible types: java.lang.String cannot be converted to int"), errors.get(0));
    assertTrue(errors.get(0).endsWith("    | int price = quotes.quote(\"X\");"), errors.get(0));
  }

  @Test
  void aThrowsBlockRunsAndHandsBackWhatItThrew() throws Exception {
    MarkdownPage page = page(String.join("\n",
        "## Errors",
        "<!-- snippet: throws ConfigurationException [brace:invalid-value] -->",
        "```java",
        "dev.brace.runtime.config.RetryConfig.builder(\"r\").maxAttempts(0);",
        "```",
        "<!-- snippet: throws IllegalStateException [brace:stack-empty] -->",
        "```java",
        "int a = 1;",
        "```",
        "<!-- snippet: throws [brace:stack-empty] -->",
        "```java",
        "```"));
    Snippet throwing = page.snippets().get(0);
    Snippet returning = page.snippets().get(1);

    assertEquals(new SnippetMarker(SnippetMarker.Kind.THROWS, null, List.of("[brace:invalid-value]"), null, "ConfigurationException"),
        throwing.marker());
    assertEquals(1, page.problems().size(), page.problems().toString());
    assertTrue(page.problems().get(0).contains("throws names the exception and the tag"), page.problems().get(0));

    SnippetBatch batch = SnippetBatch.compile(Map.of(throwing, List.of(), returning, List.of()), root.resolve("work"), false);
    Throwable thrown = batch.run(throwing);
    assertEquals("dev.brace.runtime.ConfigurationException", thrown.getClass().getName());
    assertTrue(thrown.getMessage().startsWith("[brace:invalid-value] retry 'r': maxAttempts = \"0\""), thrown.getMessage());
    assertEquals(null, batch.run(returning), "a block that returns threw nothing, which DocSnippetsTest reports");
  }

  @Test
  void aBlockInAnotherLanguageIsCheckedOnlyAsAFragment() throws IOException {
    Files.writeString(root.resolve("application.yml"), "management:\n  endpoints:\n    web:\n      exposure:\n        include: health\n");
    MarkdownPage page = page(String.join("\n",
        "<!-- snippet: fragment of application.yml -->",
        "```yaml",
        "management:",
        "  endpoints:",
        "    web:",
        "      exposure:",
        "        include: health, prometheus",
        "```",
        "```xml",
        "<unchecked/>",
        "```",
        "<!-- snippet: must-not-compile [brace:invalid-value] -->",
        "```yaml",
        "a: b",
        "```"));

    assertEquals(1, page.snippets().size(), "the unmarked xml block is not a snippet");
    assertEquals(1, page.problems().size(), page.problems().toString());
    assertTrue(page.problems().get(0).startsWith("page.md:12: a snippet marker above a ```yaml fence can only say 'fragment of <path>'"),
        page.problems().get(0));
    Optional<String> problem = Fragments.check(root, page.snippets().get(0));
    assertTrue(problem.orElseThrow().startsWith("page.md:7: this line of the fragment is not in application.yml"), problem.get());
  }

  @Test
  void everyPageUnderDocsIsReadAndAGuidePageWithoutImportsTakesItsIndexs() throws IOException {
    Files.createDirectories(root.resolve("docs/guide"));
    Files.writeString(root.resolve("README.md"), "# Root\n");
    Files.writeString(root.resolve("docs/guide/README.md"), "<!-- snippet: imports -->\n```java\nimport java.util.List;\n```\n");
    Files.writeString(root.resolve("docs/guide/page.md"), "```java\nList<String> a = List.of();\n```\n");
    Files.writeString(root.resolve("docs/guide/own.md"), "<!-- snippet: imports -->\n```java\nimport java.util.Map;\n```\n");

    List<String> paths = RepositoryFiles.pages(root);
    List<MarkdownPage> pages = paths.stream().map(path -> MarkdownPage.read(root, path)).toList();

    assertEquals(List.of("README.md", "docs/guide/README.md", "docs/guide/own.md", "docs/guide/page.md"), paths);
    assertEquals(List.of("import java.util.List;"), DocSnippetsTest.importsOf(pages.get(3), pages));
    assertEquals(List.of("import java.util.Map;"), DocSnippetsTest.importsOf(pages.get(2), pages));
    assertEquals(List.of(), DocSnippetsTest.importsOf(pages.get(0), pages), "no README.md beside README.md's own");
  }
}
