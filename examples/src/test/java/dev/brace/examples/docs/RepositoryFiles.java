package dev.brace.examples.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The repository's pages, and the files their markers name. */
public final class RepositoryFiles {
  private RepositoryFiles() {}

  /**
   * @return the repository root: {@code brace.repository.root} (set by the examples' pom), else
   *     the parent of the working directory (a test run from the examples module)
   */
  public static Path root() {
    String configured = System.getProperty("brace.repository.root");
    Path root = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath().getParent();
    return root.toAbsolutePath().normalize();
  }

  /**
   * @param root the repository root
   * @return every page whose {@code java} blocks are checked: the {@code *.md} files at the root,
   *     in {@code docs/} and in {@code docs/guide/}, relative to the root, sorted
   * @throws IOException when a directory cannot be listed
   */
  static List<String> pages(Path root) throws IOException {
    List<String> pages = new ArrayList<>();
    for (Path directory : List.of(root, root.resolve("docs"), root.resolve("docs").resolve("guide"))) {
      if (!Files.isDirectory(directory)) {
        continue;
      }
      try (Stream<Path> files = Files.list(directory)) {
        files.filter(file -> file.getFileName().toString().endsWith(".md"))
            .map(file -> root.relativize(file).toString().replace('\\', '/'))
            .sorted()
            .forEach(pages::add);
      }
    }
    return pages;
  }

  /**
   * @param root the repository root
   * @param path a path a marker names, relative to the root
   * @return the file, when it is a regular file inside the repository
   */
  static Optional<Path> resolve(Path root, String path) {
    Path file = root.resolve(path).normalize();
    return file.startsWith(root) && Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
  }

  /**
   * @param root the repository root
   * @param checkedBy {@code path/To/SomeTest.java#method}, as a marker's {@code checked by} gives it
   * @return what is wrong, or empty when the file exists and declares a method of that name
   * @throws IOException when the file exists but cannot be read
   */
  static Optional<String> checkTest(Path root, String checkedBy) throws IOException {
    String path = checkedBy.substring(0, checkedBy.indexOf('#'));
    String method = checkedBy.substring(checkedBy.indexOf('#') + 1);
    Optional<Path> file = resolve(root, path);
    if (file.isEmpty()) {
      return Optional.of("'checked by' names " + path + ", which is not a file of the repository");
    }
    Pattern declaration = Pattern.compile("\\bvoid\\s+" + Pattern.quote(method) + "\\s*\\(");
    if (!declaration.matcher(Files.readString(file.get(), StandardCharsets.UTF_8)).find()) {
      return Optional.of("'checked by' names " + checkedBy + ", but " + path + " declares no method void " + method + "(…)");
    }
    return Optional.empty();
  }
}
