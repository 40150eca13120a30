package dev.brace.examples.docs;

import java.util.List;

/**
 * One fenced {@code java} block of a Markdown page, as written, with the marker comment above it.
 *
 * @param page the page, relative to the repository root ({@code docs/guide/getting-started.md})
 * @param fenceLine the line of the opening fence, 1-based; the block's first line is the next one
 * @param indent the columns the fence is indented by (a block inside a list item), stripped from
 *     every line
 * @param section the page's {@code #} or {@code ##} heading above the block ("" before any)
 * @param marker what the marker comment says the block is
 * @param lines the block's lines, indentation stripped
 */
record Snippet(String page, int fenceLine, int indent, String section, SnippetMarker marker, List<String> lines) {

  /** @return {@code docs/guide/getting-started.md:57}, the fence's place, as editors and terminals link it */
  String where() {
    return page + ":" + fenceLine;
  }

  /**
   * @param line a line of the block, 1-based
   * @return that line's number in the page
   */
  int pageLine(int line) {
    return fenceLine + line;
  }

  /**
   * @param line a line of the block, 1-based
   * @return its text, or "" past the end
   */
  String line(int line) {
    return line >= 1 && line <= lines.size() ? lines.get(line - 1) : "";
  }
}
