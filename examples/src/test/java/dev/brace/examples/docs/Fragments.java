package dev.brace.examples.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Checks that a block marked {@code fragment of <path>} shows that file truthfully: every line of
 * the block that is not blank appears in the file, in the same order, compared with leading and
 * trailing spaces removed and inner runs of spaces made one. The file may have lines the block
 * leaves out (Javadoc, other members); a block line that is only {@code …} or {@code // …} says so
 * and is skipped. The file itself is compiled (and, for a test, run) by the build.
 */
final class Fragments {
  private Fragments() {}

  /**
   * @param root the repository root
   * @param snippet a block marked as a fragment
   * @return what is wrong, or empty when the block is a fragment of its file
   * @throws IOException when the file exists but cannot be read
   */
  static Optional<String> check(Path root, Snippet snippet) throws IOException {
    Optional<Path> file = RepositoryFiles.resolve(root, snippet.marker().file());
    if (file.isEmpty()) {
      return Optional.of(snippet.where() + ": the block is marked as a fragment of " + snippet.marker().file()
          + ", which is not a file of the repository");
    }
    List<String> fileLines = Files.readAllLines(file.get(), StandardCharsets.UTF_8);
    int next = 0;
    int lastMatch = 0;
    for (int i = 1; i <= snippet.lines().size(); i++) {
      String wanted = normalized(snippet.line(i));
      if (wanted.isEmpty() || wanted.equals("…") || wanted.equals("// …") || wanted.equals("...")) {
        continue;
      }
      while (next < fileLines.size() && !normalized(fileLines.get(next)).equals(wanted)) {
        next++;
      }
      if (next == fileLines.size()) {
        String after = lastMatch == 0 ? "" : " after its line " + lastMatch + " (where the block's previous line is)";
        return Optional.of(snippet.page() + ":" + snippet.pageLine(i) + ": this line of the fragment is not in "
            + snippet.marker().file() + after + ":\n    | " + snippet.line(i)
            + "\n  Copy the file's current text into the block (or fix the file): the block must show it as it is.");
      }
      next++;
      lastMatch = next;
    }
    return Optional.empty();
  }

  private static String normalized(String line) {
    return line.trim().replaceAll("\\s+", " ");
  }
}
