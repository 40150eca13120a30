package dev.brace.examples.docs;

import dev.brace.processor.BraceProcessor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles source files in this JVM with the JDK's javac, as a user's build would: Java 17, the
 * test class path (Brace's modules, the examples and what the docs name), and Brace's processor
 * given explicitly, so the {@code Resilient} wrappers the blocks name are generated in the same
 * run. No other processor runs.
 */
final class SnippetCompiler {
  private SnippetCompiler() {}

  /**
   * @param sources the files
   * @param output a fresh directory for classes and generated sources
   * @param classPath what javac compiles them against ({@link TestClassPath})
   * @return javac's errors (warnings are not the docs' business)
   * @throws IOException when the output cannot be created
   */
  static List<Diagnostic<? extends JavaFileObject>> errors(Collection<Path> sources, Path output, String classPath)
      throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("no system Java compiler: run the tests on a JDK, not a JRE");
    }
    Path classes = Files.createDirectories(output.resolve("classes"));
    Path generated = Files.createDirectories(output.resolve("generated"));
    List<String> options = new ArrayList<>(List.of(
        "--release", "17",
        "-classpath", classPath,
        "-d", classes.toString(),
        "-s", generated.toString(),
        "-implicit:none",
        "-Xmaxerrs", "100000",
        // Go on checking every block after an error in one (a parse error, a processor error), so a
        // run reports all of them. A hidden option: a javac without it ignores it.
        "-XDshould-stop.ifError=FLOW"));
    if (javac.isSupportedOption("-proc:full") >= 0) {
      options.add("-proc:full");   // JDK 23+ runs no processor unless asked
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      JavaCompiler.CompilationTask task = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources));
      task.setProcessors(List.of(new BraceProcessor()));
      task.setLocale(Locale.ROOT);
      task.call();
    }
    List<Diagnostic<? extends JavaFileObject>> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
      if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
        errors.add(diagnostic);
      }
    }
    return errors;
  }

  /**
   * @param diagnostic a diagnostic
   * @return the file it is in, or null when it is about no file
   */
  static Path fileOf(Diagnostic<? extends JavaFileObject> diagnostic) {
    return diagnostic.getSource() == null ? null : Path.of(diagnostic.getSource().toUri()).toAbsolutePath().normalize();
  }
}
