package dev.brace.examples.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.lang.model.SourceVersion;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * A block as a source file javac reads line for line: line n of the file is line n of the block,
 * so a diagnostic maps back to the page by adding the fence's line. What the harness adds goes
 * at the start of a line, never on a line of its own: the package and the page's imports at the
 * start of line 1; for a block of statements, {@code final class Snippet_L<fence> { void run()
 * throws Exception {} at the start of its first statement, and the two closing braces after its
 * last line.
 *
 * <p>A block is a compilation unit when its first line that is not blank, an import or a {@code //}
 * comment starts a type declaration (an annotation, a modifier, {@code class}, {@code interface},
 * {@code enum}, {@code record}); otherwise it is statements, as one would type them into {@code
 * jshell}. The blocks of one section ({@code #} or {@code ##} heading) share a package, so a type one
 * declares is visible to the others.
 */
final class SnippetSource {
  private static final Pattern TYPE_START = Pattern.compile(
      "^(@|((public|protected|private|abstract|final|static|sealed|non-sealed|strictfp)\\s+)*(class|interface|enum|record)\\s+\\w)");
  private static final Pattern PUBLIC_TYPE = Pattern.compile(
      "\\bpublic\\s+((abstract|final|sealed|non-sealed|strictfp|static)\\s+)*(class|interface|enum|record|@interface)\\s+(\\w+)");

  private final Snippet snippet;
  private final String packageName;
  private final String typeName;
  private final String text;
  private final int[] insertedColumns;

  private SnippetSource(Snippet snippet, String packageName, String typeName, String text, int[] insertedColumns) {
    this.snippet = snippet;
    this.packageName = packageName;
    this.typeName = typeName;
    this.text = text;
    this.insertedColumns = insertedColumns;
  }

  /**
   * @param snippet a block
   * @param pageImports the import lines of the page's {@code imports} block
   * @param alone whether the block gets a package of its own rather than its section's (a block
   *     that must not compile, so that its errors are its own)
   * @return the block as a source file
   * @throws IllegalArgumentException when the block declares a package (the harness chooses it)
   */
  static SnippetSource of(Snippet snippet, List<String> pageImports, boolean alone) {
    List<String> lines = snippet.lines();
    int first = 0;
    while (first < lines.size() && isPreamble(lines.get(first).trim())) {
      first++;
    }
    for (int i = 0; i <= Math.min(first, lines.size() - 1); i++) {
      if (lines.get(i).trim().startsWith("package ")) {
        throw new IllegalArgumentException(snippet.where() + ": line " + snippet.pageLine(i + 1)
            + " declares a package; leave it out: the blocks of a section share a package the check chooses");
      }
    }
    String packageName = "snippets." + identifier(snippet.page().replaceFirst("\\.md$", "")) + "." + identifier(snippet.section())
        + (alone ? ".l" + snippet.fenceLine() : "");
    String header = "package " + packageName + "; " + String.join(" ", pageImports) + " ";
    boolean statements = first < lines.size() && !TYPE_START.matcher(lines.get(first).trim()).find();
    String classOfStatements = "Snippet_L" + snippet.fenceLine();
    String typeName = statements ? classOfStatements : publicType(lines, classOfStatements);

    int[] inserted = new int[lines.size() + 2];
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.max(1, lines.size()); i++) {
      StringBuilder prefix = new StringBuilder();
      if (i == 0) {
        prefix.append(header);
      }
      if (statements && i == first) {
        prefix.append("final class ").append(classOfStatements).append(" { void run() throws Exception { ");
      }
      inserted[i + 1] = prefix.length();
      text.append(prefix).append(i < lines.size() ? lines.get(i) : "").append('\n');
    }
    text.append(statements ? "}}\n" : "");
    return new SnippetSource(snippet, packageName, typeName, text.toString(), inserted);
  }

  /** Blank lines, imports and line comments may precede the first statement of a block. */
  private static boolean isPreamble(String line) {
    return line.isEmpty() || line.startsWith("import ") || line.startsWith("//");
  }

  /** @return the public top-level type's name (javac wants it as the file's), else the fallback */
  private static String publicType(List<String> lines, String fallback) {
    int depth = 0;
    boolean inComment = false;
    for (String line : lines) {
      StringBuilder topLevel = new StringBuilder();
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        char next = i + 1 < line.length() ? line.charAt(i + 1) : 0;
        if (inComment) {
          if (c == '*' && next == '/') {
            inComment = false;
            i++;
          }
        } else if (c == '/' && next == '*') {
          inComment = true;
          i++;
        } else if (c == '/' && next == '/') {
          break;
        } else if (c == '"' || c == '\'') {
          i = endOfLiteral(line, i);
        } else if (c == '{') {
          depth++;
        } else if (c == '}') {
          depth--;
        } else if (depth == 0) {
          topLevel.append(c);
        }
      }
      Matcher type = PUBLIC_TYPE.matcher(topLevel);
      if (type.find()) {
        return type.group(4);
      }
    }
    return fallback;
  }

  private static int endOfLiteral(String line, int open) {
    char quote = line.charAt(open);
    for (int i = open + 1; i < line.length(); i++) {
      if (line.charAt(i) == '\\') {
        i++;
      } else if (line.charAt(i) == quote) {
        return i;
      }
    }
    return line.length();
  }

  /** @return text made a Java package name segment: {@code Getting started} → {@code getting_started} */
  static String identifier(String text) {
    String name = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
    if (name.isEmpty()) {
      return "top";
    }
    if (Character.isDigit(name.charAt(0))) {
      name = "s" + name;
    }
    return SourceVersion.isKeyword(name) ? name + "_" : name;
  }

  /** @return the block */
  Snippet snippet() {
    return snippet;
  }

  /** @return the file, relative to a source root */
  Path relativePath() {
    return Path.of(packageName.replace('.', '/'), typeName + ".java");
  }

  /**
   * @param sourceRoot where to write
   * @return the file written
   * @throws IOException when it cannot be written
   */
  Path writeTo(Path sourceRoot) throws IOException {
    Path file = sourceRoot.resolve(relativePath());
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  /**
   * @param diagnostic a diagnostic in this file
   * @return it as a line of the page, as editors link it, with the page's line under it
   */
  String describe(Diagnostic<? extends JavaFileObject> diagnostic) {
    long line = diagnostic.getLineNumber();
    String kind = diagnostic.getKind().toString().toLowerCase(Locale.ROOT);
    String message = diagnostic.getMessage(Locale.ROOT).replace("\n", "\n    ");
    if (line < 1 || line > snippet.lines().size()) {
      return snippet.where() + ": " + kind + " after the block's last line: " + message;
    }
    long column = diagnostic.getColumnNumber() - insertedColumns[(int) line];
    String place = snippet.page() + ":" + snippet.pageLine((int) line);
    if (column < 1) {
      // In what the check put before the line: the package, the page's imports, the class around statements.
      return place + ": " + kind + " in the page's imports (the block marked <!-- snippet: imports -->): " + message;
    }
    return place + ":" + (column + snippet.indent()) + ": " + kind + ": " + message + "\n    | " + snippet.line((int) line);
  }
}
