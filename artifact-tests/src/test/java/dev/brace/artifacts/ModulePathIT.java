package dev.brace.artifacts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A modular application, compiled and run the way a user on the module path would: brace-runtime,
 * brace-annotations, SLF4J and Caffeine on {@code --module-path}, brace-processor on the processor path, and
 * {@code java -m app/app.Main}. Its module-info is the one docs/guide/getting-started.md tells users to write.
 */
class ModulePathIT {

  private static final String MODULE_INFO =
      """
      module app {
        requires dev.brace;
        requires dev.brace.runtime;
        // Generated wrappers carry @javax.annotation.processing.Generated, from module java.compiler.
        requires static java.compiler;
        // brace-runtime is an automatic module and declares no requires, so nothing else resolves SLF4J.
        requires org.slf4j;
        // Likewise Caffeine, which keeps the results @StaleIfError remembers.
        requires com.github.benmanes.caffeine;
        // Brace.wrap(Class, T) reaches the generated class through a private lookup.
        opens app to dev.brace.runtime;
      }
      """;

  private static final String QUOTES =
      """
      package app;

      import dev.brace.Retry;
      import dev.brace.StaleIfError;
      import java.util.concurrent.CompletableFuture;

      public interface Quotes {
        @StaleIfError
        String close(String symbol);

        @Retry(maxAttempts = 2, delay = "1ms")
        String quote(String symbol);

        @Retry(maxAttempts = 2, delay = "1ms")
        CompletableFuture<String> quoteLater(String symbol);
      }
      """;

  private static final String MAIN =
      """
      package app;

      import dev.brace.runtime.Brace;
      import dev.brace.runtime.Registry;
      import java.util.List;
      import java.util.Map;
      import java.util.concurrent.CompletableFuture;
      import java.util.concurrent.CopyOnWriteArrayList;
      import java.util.concurrent.atomic.AtomicInteger;

      public final class Main {
        public static void main(String[] args) throws Exception {
          AtomicInteger calls = new AtomicInteger();
          Quotes everyOtherCallFails = new Quotes() {
            @Override
            public String close(String symbol) {
              if (calls.incrementAndGet() > 7) {
                throw new IllegalStateException("no close after the seventh call");
              }
              return symbol + "=41";
            }

            @Override
            public String quote(String symbol) {
              if (calls.incrementAndGet() % 2 == 1) {
                throw new IllegalStateException("every other call fails");
              }
              return symbol + "=42";
            }

            @Override
            public CompletableFuture<String> quoteLater(String symbol) {
              try {
                return CompletableFuture.completedFuture(quote(symbol));
              } catch (IllegalStateException e) {
                return CompletableFuture.failedFuture(e);
              }
            }
          };
          Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
          List<String> events = new CopyOnWriteArrayList<>();
          registry.subscribe(event -> events.add(event.kind()));

          Quotes generated = ResilientQuotes.wrap(everyOtherCallFails, registry);
          System.out.println("generated: " + generated.quote("ACME") + " after " + calls.get() + " calls");
          System.out.println("events: " + events);
          System.out.println("async: " + generated.quoteLater("ASYNC").get() + " after " + calls.get() + " calls");
          Quotes lookedUp = Brace.wrap(Quotes.class, everyOtherCallFails, registry);
          System.out.println("looked up: " + lookedUp.quote("INIT") + " after " + calls.get() + " calls");
          System.out.println("module: " + Brace.class.getModule().getName());
          System.out.println("stale: " + generated.close("OLD") + ", then " + generated.close("OLD") + " after " + calls.get() + " calls");
        }
      }
      """;

  @Test
  void aModularApplicationUsesGeneratedWrappersFromTheModulePath(@TempDir Path work) throws Exception {
    Path sources = work.resolve("src");
    write(sources.resolve("module-info.java"), MODULE_INFO);
    write(sources.resolve("app/Quotes.java"), QUOTES);
    write(sources.resolve("app/Main.java"), MAIN);
    Path classes = work.resolve("classes");

    String modulePath = path(jar("brace-annotations"), jar("brace-runtime"), jar("slf4j-api"), jar("caffeine"));
    // What Maven's annotationProcessorPaths hands javac for brace-processor: it and its dependencies.
    String processorPath =
        path(jar("brace-processor"), jar("brace-annotations"), jar("brace-runtime"), jar("slf4j-api"), jar("caffeine"));
    List<String> javacArgs = new ArrayList<>(List.of(
        "--release", "17",
        "-d", classes.toString(),
        "--module-path", modulePath,
        "--processor-path", processorPath));
    try (Stream<Path> files = Files.walk(sources)) {
      files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).forEach(javacArgs::add);
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int exit = javac.run(null, diagnostics, diagnostics, javacArgs.toArray(String[]::new));
    assertEquals(0, exit, "javac " + String.join(" ", javacArgs) + "\n" + diagnostics.toString(StandardCharsets.UTF_8));
    assertTrue(Files.isRegularFile(classes.resolve("app/ResilientQuotes.class")), "no wrapper generated");

    Path stderr = work.resolve("stderr.txt");
    Process java = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--module-path", path(classes, jar("brace-annotations"), jar("brace-runtime"), jar("slf4j-api"), jar("caffeine")),
            "-m", "app/app.Main")
        .redirectError(stderr.toFile())
        .start();
    java.getOutputStream().close();
    String out = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(java.waitFor(60, TimeUnit.SECONDS), "the application did not end");
    String err = Files.readString(stderr);
    assertEquals(0, java.exitValue(), "stdout:\n" + out + "\nstderr:\n" + err);
    assertEquals(
        List.of(
            "generated: ACME=42 after 2 calls",
            "events: [retry.attempt_failed]",
            "async: ASYNC=42 after 4 calls",
            "looked up: INIT=42 after 6 calls",
            "module: dev.brace.runtime",
            "stale: OLD=41, then OLD=41 after 8 calls"),
        out.lines().collect(Collectors.toList()),
        "stderr:\n" + err);
  }

  private static Path jar(String artifactId) {
    return PublishedArtifacts.jar(artifactId);
  }

  private static String path(Path... entries) {
    return Stream.of(entries).map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
