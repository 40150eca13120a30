package dev.brace.examples.docs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Blocks compiled together in one javac run, each diagnostic handed back to the block whose file it
 * is in. One run for all blocks that must compile, one for all that must not: javac is asked to go
 * on after an error, so a block's errors never hide another's.
 */
final class SnippetBatch {
  private final Path sourceRoot;
  private final Map<Snippet, SnippetSource> sources = new HashMap<>();
  private final Map<Snippet, String> unreadable = new HashMap<>();
  private final Map<Path, List<Diagnostic<? extends JavaFileObject>>> errorsByFile = new HashMap<>();
  private final List<Diagnostic<? extends JavaFileObject>> outside = new ArrayList<>();

  private SnippetBatch(Path sourceRoot) {
    this.sourceRoot = sourceRoot;
  }

  /**
   * @param blocks each block with the page imports it gets
   * @param directory a fresh directory for sources, classes and generated wrappers
   * @param alone whether each block gets a package of its own (see {@link SnippetSource#of})
   * @return the compiled batch
   * @throws IOException when a file cannot be written
   */
  static SnippetBatch compile(Map<Snippet, List<String>> blocks, Path directory, boolean alone) throws IOException {
    SnippetBatch batch = new SnippetBatch(directory.resolve("src").toAbsolutePath().normalize());
    Map<Path, Snippet> byFile = new HashMap<>();
    for (Map.Entry<Snippet, List<String>> block : blocks.entrySet()) {
      Snippet snippet = block.getKey();
      try {
        SnippetSource source = SnippetSource.of(snippet, block.getValue(), alone);
        Path file = batch.fileOf(source);
        Snippet earlier = byFile.putIfAbsent(file, snippet);
        if (earlier != null) {
          batch.unreadable.put(snippet, snippet.where() + ": declares the same public type as the block at " + earlier.where()
              + "; the blocks of one section share a package, so give one of them another name");
          continue;
        }
        source.writeTo(batch.sourceRoot);
        batch.sources.put(snippet, source);
      } catch (IllegalArgumentException problem) {
        batch.unreadable.put(snippet, problem.getMessage());
      }
    }
    if (byFile.isEmpty()) {
      return batch;
    }
    for (Diagnostic<? extends JavaFileObject> error : SnippetCompiler.errors(byFile.keySet(), directory.resolve("out"))) {
      Path file = SnippetCompiler.fileOf(error);
      if (file != null && byFile.containsKey(file)) {
        batch.errorsByFile.computeIfAbsent(file, f -> new ArrayList<>()).add(error);
      } else {
        batch.outside.add(error);
      }
    }
    return batch;
  }

  private Path fileOf(SnippetSource source) {
    return sourceRoot.resolve(source.relativePath()).toAbsolutePath().normalize();
  }

  /**
   * @param snippet a block of this batch
   * @return why it could not be made a source file, or null
   */
  String unreadable(Snippet snippet) {
    return unreadable.get(snippet);
  }

  /**
   * @param snippet a block of this batch that became a source file
   * @return javac's errors in it
   */
  List<Diagnostic<? extends JavaFileObject>> errors(Snippet snippet) {
    return errorsByFile.getOrDefault(fileOf(sources.get(snippet)), List.of());
  }

  /**
   * @param snippet a block of this batch that became a source file
   * @return its errors, each at its place in the page
   */
  List<String> describedErrors(Snippet snippet) {
    return errors(snippet).stream().map(sources.get(snippet)::describe).collect(Collectors.toList());
  }

  /** @return errors in no block: in generated wrappers, or about no file */
  List<String> errorsOutsideBlocks() {
    return outside.stream()
        .map(error -> (SnippetCompiler.fileOf(error) == null ? "" : SnippetCompiler.fileOf(error) + ":" + error.getLineNumber() + ": ")
            + error.getMessage(null))
        .collect(Collectors.toList());
  }

  /** @return whether the Brace processor reported an error (it then generates no wrapper for that interface) */
  boolean processorFailed() {
    return errorsByFile.values().stream().flatMap(List::stream).anyMatch(error -> error.getMessage(null).contains("[brace:"));
  }
}
