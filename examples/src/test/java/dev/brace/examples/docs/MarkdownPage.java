package dev.brace.examples.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code java} blocks of one Markdown page, the blocks in other languages marked as fragments
 * of a file (a {@code pom.xml}, an {@code application.yml}), and what is wrong with its markers. Fences are read
 * as CommonMark does: three or more backticks or tildes, indented or not (a block inside a list
 * item), closed by a fence of the same character at least as long. Headings inside fences are code,
 * not sections.
 *
 * @param path the page, relative to the repository root
 * @param snippets its {@code java} blocks and the fragments in other languages, in page order
 * @param problems markers that are malformed or stand above no {@code java} block, with their line
 */
record MarkdownPage(String path, List<Snippet> snippets, List<String> problems) {
  private static final Pattern FENCE = Pattern.compile("^( *)(`{3,}|~{3,})\\s*([^`\\s]*).*$");
  private static final Pattern SECTION = Pattern.compile("^#{1,2}\\s+(.*?)\\s*#*\\s*$");

  /**
   * @param root the repository root
   * @param page the page, relative to it
   * @return its blocks and problems
   * @throws UncheckedIOException when the page cannot be read
   */
  static MarkdownPage read(Path root, String page) {
    List<String> text;
    try {
      text = Files.readAllLines(root.resolve(page), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Snippet> snippets = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    String section = "";
    for (int i = 0; i < text.size(); i++) {
      String line = text.get(i);
      Matcher fence = FENCE.matcher(line);
      if (fence.matches()) {
        int end = closingFence(text, i, fence.group(2));
        boolean java = fence.group(3).equalsIgnoreCase("java");
        SnippetMarker marker = SnippetMarker.NONE;
        if (i > 0 && SnippetMarker.looksLikeMarker(text.get(i - 1))) {
          try {
            marker = SnippetMarker.parse(text.get(i - 1));
          } catch (IllegalArgumentException malformed) {
            problems.add(page + ":" + i + ": " + malformed.getMessage());
            i = end;
            continue;
          }
        }
        // A block in another language (a pom.xml, an application.yml) is checked only as a fragment of a file.
        if (java || marker.kind() == SnippetMarker.Kind.FRAGMENT) {
          int indent = fence.group(1).length();
          List<String> lines = new ArrayList<>();
          for (int j = i + 1; j < end; j++) {
            lines.add(unindent(text.get(j), indent));
          }
          snippets.add(new Snippet(page, i + 1, indent, section, marker, List.copyOf(lines)));
        }
        i = end;
        continue;
      }
      if (SnippetMarker.looksLikeMarker(line)) {
        String next = i + 1 < text.size() ? text.get(i + 1) : "";
        Matcher nextFence = FENCE.matcher(next);
        if (!nextFence.matches()) {
          problems.add(page + ":" + (i + 1) + ": a snippet marker stands on the line right above a ```java fence;"
              + " the next line is '" + next.trim() + "'");
        } else if (!nextFence.group(3).equalsIgnoreCase("java") && !isFragment(line)) {
          problems.add(page + ":" + (i + 1) + ": a snippet marker above a ```" + nextFence.group(3)
              + " fence can only say 'fragment of <path>': only a ```java block is compiled");
        }
        continue;
      }
      Matcher heading = SECTION.matcher(line);
      if (heading.matches()) {
        section = heading.group(1);
      }
    }
    return new MarkdownPage(page, List.copyOf(snippets), List.copyOf(problems));
  }

  private static boolean isFragment(String markerLine) {
    try {
      return SnippetMarker.parse(markerLine).kind() == SnippetMarker.Kind.FRAGMENT;
    } catch (IllegalArgumentException malformed) {
      return true;   // reported where the fence is read
    }
  }

  /** @return the index of the closing fence, or the page's size when the block runs to the end */
  private static int closingFence(List<String> text, int open, String fence) {
    Pattern closing = Pattern.compile("^ *" + Pattern.quote(fence.substring(0, 1)) + "{" + fence.length() + ",}\\s*$");
    for (int j = open + 1; j < text.size(); j++) {
      if (closing.matcher(text.get(j)).matches()) {
        return j;
      }
    }
    return text.size();
  }

  private static String unindent(String line, int indent) {
    int strip = 0;
    while (strip < indent && strip < line.length() && line.charAt(strip) == ' ') {
      strip++;
    }
    return line.substring(strip);
  }

  /** @return the block marked {@code imports}, if the page has one */
  List<String> imports() {
    List<String> imports = new ArrayList<>();
    for (Snippet snippet : snippets) {
      if (snippet.marker().kind() == SnippetMarker.Kind.IMPORTS) {
        for (String line : snippet.lines()) {
          String trimmed = line.trim();
          if (trimmed.startsWith("import ") && trimmed.contains(";")) {
            // Up to the semicolon: a trailing comment would swallow what follows on the same line.
            imports.add(trimmed.substring(0, trimmed.indexOf(';') + 1));
          }
        }
      }
    }
    return imports;
  }
}
