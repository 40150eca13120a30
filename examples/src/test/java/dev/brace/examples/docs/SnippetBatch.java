package dev.brace.examples.docs;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
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
  private final Path classes;
  private URLClassLoader loader;

  private SnippetBatch(Path sourceRoot, Path classes) {
    this.sourceRoot = sourceRoot;
    this.classes = classes;
  }

  /**
   * @param blocks each block with the page imports it gets
   * @param directory a fresh directory for sources, classes and generated wrappers
   * @param alone whether each block gets a package of its own (see {@link SnippetSource#of})
   * @return the compiled batch
   * @throws IOException when a file cannot be written
   */
  static SnippetBatch compile(Map<Snippet, List<String>> blocks, Path directory, boolean alone) throws IOException {
    return compile(blocks, directory, alone, TestClassPath.whole());
  }

  /**
   * @param blocks each block with the page imports it gets
   * @param directory a fresh directory for sources, classes and generated wrappers
   * @param alone whether each block gets a package of its own (see {@link SnippetSource#of})
   * @param classPath what javac compiles them against
   * @return the compiled batch
   * @throws IOException when a file cannot be written
   */
  static SnippetBatch compile(Map<Snippet, List<String>> blocks, Path directory, boolean alone, String classPath)
      throws IOException {
    SnippetBatch batch = new SnippetBatch(directory.resolve("src").toAbsolutePath().normalize(),
        directory.resolve("out").resolve("classes").toAbsolutePath());
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
    for (Diagnostic<? extends JavaFileObject> error : SnippetCompiler.errors(byFile.keySet(), directory.resolve("out"), classPath)) {
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

  /**
   * Runs a block of statements that compiled, on a class loader over what this batch compiled, with
   * that loader as the thread's context loader (as an application's own classes would be).
   *
   * @param snippet a block of this batch that compiled
   * @return what its {@code run()} threw, or null when it returned
   * @throws IllegalArgumentException when the block is a compilation unit, not statements
   * @throws ReflectiveOperationException when its class cannot be loaded or made
   * @throws IOException when the class directory cannot be read
   */
  Throwable run(Snippet snippet) throws ReflectiveOperationException, IOException {
    String className = sources.get(snippet).statementsClass();
    if (className == null) {
      throw new IllegalArgumentException(snippet.where() + ": a block that runs is statements, not a declaration");
    }
    if (loader == null) {
      loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, SnippetBatch.class.getClassLoader());
    }
    Class<?> type = Class.forName(className, true, loader);
    Constructor<?> constructor = type.getDeclaredConstructor();
    constructor.setAccessible(true);
    Method run = type.getDeclaredMethod("run");
    run.setAccessible(true);
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      run.invoke(constructor.newInstance());
      return null;
    } catch (InvocationTargetException thrown) {
      return thrown.getCause();
    } finally {
      thread.setContextClassLoader(before);
    }
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
