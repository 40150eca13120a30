package dev.brace.examples.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the HTML comment on the line above a {@code java} fence says about the block. Invisible on
 * GitHub, it reads {@code <!-- snippet: clause; clause -->} with these clauses:
 *
 * <ul>
 *   <li>none (no comment): the block compiles, with the page's imports, the Brace processor
 *       running;
 *   <li>{@code imports}: the block holds the page's imports, given to every other block of the
 *       page;
 *   <li>{@code fragment of <path>}: the block's lines appear, in order, in that file of the
 *       repository, which the build compiles (and, for a test, runs);
 *   <li>{@code must-not-compile [brace:tag] …}: compiling the block fails, every error carrying one
 *       of the tags, each tag at least once;
 *   <li>{@code checked by <path>#<method>}: the test method that asserts what the block claims
 *       (with a compiled block or a fragment).
 * </ul>
 *
 * @param kind how the block is checked
 * @param file the file a fragment is part of, else null
 * @param tags the tags a block that must not compile fails with, else empty
 * @param checkedBy {@code path#method} of the test that backs the block, else null
 */
record SnippetMarker(Kind kind, String file, List<String> tags, String checkedBy) {

  /** How a block is checked. */
  enum Kind {
    COMPILES,
    IMPORTS,
    FRAGMENT,
    MUST_NOT_COMPILE
  }

  static final SnippetMarker NONE = new SnippetMarker(Kind.COMPILES, null, List.of(), null);

  private static final Pattern COMMENT = Pattern.compile("<!--\\s*snippet\\b(.*?)-->");
  private static final Pattern TAG = Pattern.compile("\\[brace:[a-z0-9-]+]");

  /**
   * @param line a line of the page
   * @return whether it is meant as a marker (so a malformed one is reported, not ignored)
   */
  static boolean looksLikeMarker(String line) {
    String trimmed = line.trim();
    return trimmed.startsWith("<!--") && trimmed.substring(4).trim().startsWith("snippet");
  }

  /**
   * @param line the marker line
   * @return what it says
   * @throws IllegalArgumentException naming what is wrong with it
   */
  static SnippetMarker parse(String line) {
    Matcher comment = COMMENT.matcher(line.trim());
    if (!comment.matches() || !comment.group(1).trim().startsWith(":")) {
      throw new IllegalArgumentException("a marker reads <!-- snippet: clause; clause --> on one line, not " + line.trim());
    }
    Kind kind = Kind.COMPILES;
    String file = null;
    List<String> tags = new ArrayList<>();
    String checkedBy = null;
    for (String clause : comment.group(1).trim().substring(1).split(";")) {
      String text = clause.trim();
      Kind clauseKind = null;
      if (text.equals("imports")) {
        clauseKind = Kind.IMPORTS;
      } else if (text.startsWith("fragment of ")) {
        clauseKind = Kind.FRAGMENT;
        file = text.substring("fragment of ".length()).trim();
      } else if (text.startsWith("must-not-compile")) {
        clauseKind = Kind.MUST_NOT_COMPILE;
        tags.addAll(tags(text.substring("must-not-compile".length())));
      } else if (text.startsWith("checked by ")) {
        checkedBy = text.substring("checked by ".length()).trim();
        if (!checkedBy.matches("[^#\\s]+\\.java#\\w+")) {
          throw new IllegalArgumentException("'checked by' names a test as path/To/SomeTest.java#method, not " + checkedBy);
        }
      } else {
        throw new IllegalArgumentException("unknown clause '" + text + "'; a marker's clauses are: imports,"
            + " fragment of <path>, must-not-compile [brace:tag], checked by <path>#<method>");
      }
      if (clauseKind != null) {
        if (kind != Kind.COMPILES) {
          throw new IllegalArgumentException("a block is one of imports, fragment of, must-not-compile; this marker says "
              + kind + " and " + clauseKind);
        }
        kind = clauseKind;
      }
    }
    if (kind == Kind.MUST_NOT_COMPILE && tags.isEmpty()) {
      throw new IllegalArgumentException("must-not-compile names the tag it fails with, e.g. must-not-compile [brace:fallback-missing]");
    }
    if (checkedBy != null && (kind == Kind.IMPORTS || kind == Kind.MUST_NOT_COMPILE)) {
      throw new IllegalArgumentException("'checked by' backs a block that runs; " + kind + " does not");
    }
    return new SnippetMarker(kind, file, List.copyOf(tags), checkedBy);
  }

  private static List<String> tags(String text) {
    List<String> tags = new ArrayList<>();
    Matcher tag = TAG.matcher(text);
    while (tag.find()) {
      tags.add(tag.group());
    }
    if (!TAG.matcher(text).replaceAll("").isBlank()) {
      throw new IllegalArgumentException("must-not-compile takes tags such as [brace:invalid-value], not'" + text.trim() + "'");
    }
    return tags;
  }

  /** @return how the marker reads in a test's name */
  String describe() {
    switch (kind) {
      case IMPORTS:
        return "the page's imports compile";
      case FRAGMENT:
        return "is a fragment of " + file;
      case MUST_NOT_COMPILE:
        return "does not compile: " + String.join(" ", tags);
      default:
        return "compiles";
    }
  }
}
