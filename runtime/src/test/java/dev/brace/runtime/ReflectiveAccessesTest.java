package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every reflective access left in the runtime's code, each with what a native image needs for it,
 * checked against the metadata brace-runtime ships
 * ({@code META-INF/native-image/dev.brace/brace-runtime/reachability-metadata.json}). A new {@code
 * Class.forName}, {@code getMethod}, method handle lookup or resource read fails this test until it
 * is listed here with the entry it needs, and that entry is in the metadata.
 */
class ReflectiveAccessesTest {
  private static final Path SOURCES = Path.of("src", "main", "java");
  private static final Path METADATA =
      Path.of("src", "main", "resources", "META-INF", "native-image", "dev.brace", "brace-runtime", "reachability-metadata.json");
  private static final Pattern REFLECTIVE = Pattern.compile("Class\\.forName\\(|\\.getMethod\\(|\\.getDeclaredMethod\\("
      + "|\\.getConstructor\\(|\\.getDeclaredConstructor\\(|\\.getResources?\\(|getResourceAsStream\\(|\\.findStatic\\("
      + "|\\.findVirtual\\(|\\.findConstructor\\(|privateLookupIn\\(|\\.findVarHandle\\(|ServiceLoader\\.load\\(");

  /** What a native image needs for one access: an entry of the metadata, or why none is this jar's. */
  private sealed interface Need {}

  /** A type registered with all its public methods. */
  private record PublicMethods(String type) implements Need {}

  /** A type registered with these methods (a constructor is {@code <init>}). */
  private record Methods(String type, List<String> names) implements Need {}

  /** A type registered, conditional on the type itself being reached. */
  private record Present(String type) implements Need {}

  /** A resource glob. */
  private record Resource(String glob) implements Need {}

  /** Nothing brace-runtime can ship: the class is the application's, or the image folds it. */
  private record Elsewhere(String why) implements Need {}

  /** One access: the file, a fragment of its line, and what it needs. */
  private record Access(String file, String code, List<Need> needs) {}

  private static final List<String> BUILDERS = List.of("Bulkhead", "Chaos", "CircuitBreaker", "Deadline", "Fallback",
      "Hedge", "RateLimit", "RetryBudget", "Retry", "StaleIfError", "Timeout");
  private static final String WRAPPER = "only when the index does not list the wrapper (an older processor, a named"
      + " module without provides): the application's generated Resilient<Interface>; brace-processor writes its"
      + " metadata beside it (META-INF/native-image/dev.brace.generated/<interface>/reachability-metadata.json), and the"
      + " Spring Boot starter registers it ahead of time too";
  private static final String CONFIGURED_FAULT = "a class BRACE_CHAOS_<NAME>_FAULT names that the method does not"
      + " declare (a declared one the generated code makes): the application registers its String constructor (see the"
      + " guide's Native images page)";

  private static final List<Access> ACCESSES = List.of(
      new Access("config/ConfigBuilder.java", "getClass().getMethod(kind.property(attribute), Duration.class)",
          BUILDERS.stream().<Need>map(name -> new PublicMethods("dev.brace.runtime.config." + name + "Config$Builder")).toList()),
      new Access("Brace.java", "wrapper.getDeclaredMethod(\"wrap\", type, Registry.class)", List.of(new Elsewhere(WRAPPER))),
      new Access("Brace.java", "MethodHandles.privateLookupIn(wrapper, MethodHandles.lookup())", List.of(new Elsewhere(WRAPPER))),
      new Access("Brace.java", ".findStatic(wrapper, \"wrap\"", List.of(new Elsewhere(WRAPPER))),
      new Access("Brace.java", "Class.forName(name, true, loader)", List.of(new Elsewhere(WRAPPER))),
      new Access("internal/WrapperIndex.java", "ServiceLoader.load(WrapperFactory.class, loader)",
          List.of(new Elsewhere("the application's generated factories, which brace-processor lists in"
              + " META-INF/services/dev.brace.runtime.support.WrapperFactory: native-image registers the providers"
              + " of the service files on the class path itself"))),
      new Access("internal/sequence/AsyncAttempt.java", "lookup.findVarHandle(AsyncAttempt.class, \"state\"",
          List.of(new Elsewhere("a field of its own class through a constant lookup, which the image folds at build time"))),
      new Access("internal/sequence/AsyncAttempt.java", "lookup.findVarHandle(AsyncAttempt.class, \"waiting\"",
          List.of(new Elsewhere("a field of its own class through a constant lookup, which the image folds at build time"))),
      new Access("internal/config/InstanceManifest.java", "loader.getResources(FOLDER)",
          List.of(new Resource("META-INF/brace/instances"), new Resource("META-INF/brace/instances/*"))),
      new Access("internal/config/InstanceManifest.java", "loader.getResource(FOLDER + file)",
          List.of(new Resource("META-INF/brace/instances/*"))),
      new Access("internal/OptionalClasses.java", "Class.forName(className, false, OptionalClasses.class.getClassLoader())",
          List.of(new Present("io.opentelemetry.api.trace.Span"), new Present("io.opentelemetry.context.Context"),
              new Present("io.micrometer.context.ContextSnapshotFactory"))),
      new Access("internal/chaos/FaultType.java", "found.asSubclass(Throwable.class).getConstructor(String.class)",
          List.of(new Elsewhere(CONFIGURED_FAULT))),
      new Access("internal/chaos/FaultType.java", "Class.forName(className, false, loader)", List.of(new Elsewhere(CONFIGURED_FAULT))),
      new Access("internal/http/FrameworkRetryAfter.java", "level.getMethod(\"getResponseHeaders\")",
          List.of(new Methods("org.springframework.web.client.RestClientResponseException", List.of("getResponseHeaders")))),
      new Access("internal/http/FrameworkRetryAfter.java", "level.getMethod(\"getHeaders\")",
          List.of(new Methods("org.springframework.web.reactive.function.client.WebClientResponseException", List.of("getHeaders")))),
      new Access("internal/http/FrameworkRetryAfter.java", "level.getMethod(\"responseHeaders\"), level.getMethod(\"retryAfter\")",
          List.of(new Methods("feign.RetryableException", List.of("responseHeaders", "retryAfter")))),
      new Access("internal/http/FrameworkRetryAfter.java", "level.getMethod(\"responseHeaders\"), null",
          List.of(new Methods("feign.FeignException", List.of("responseHeaders")))),
      new Access("internal/http/FrameworkRetryAfter.java", "level.getMethod(\"response\")",
          List.of(new Methods("retrofit2.HttpException", List.of("response")))),
      new Access("internal/http/FrameworkRetryAfter.java", "headers.getReturnType().getMethod(\"getFirst\", String.class)",
          List.of(new Methods("org.springframework.http.HttpHeaders", List.of("getFirst")))),
      new Access("internal/http/FrameworkRetryAfter.java", "response.getReturnType().getMethod(\"headers\")",
          List.of(new Methods("retrofit2.Response", List.of("headers")))),
      new Access("internal/http/FrameworkRetryAfter.java", "headers.getReturnType().getMethod(\"get\", String.class)",
          List.of(new Methods("okhttp3.Headers", List.of("get")))),
      new Access("internal/WorkerThreads.java", "Class.forName(\"java.lang.Thread$Builder$OfVirtual\")",
          List.of(new Methods("java.lang.Thread$Builder$OfVirtual", List.of("name")))),
      new Access("internal/WorkerThreads.java", "lookup.findStatic(Thread.class, \"ofVirtual\"",
          List.of(new Methods("java.lang.Thread", List.of("ofVirtual")))),
      new Access("internal/WorkerThreads.java", "lookup.findVirtual(builderType, \"name\"",
          List.of(new Methods("java.lang.Thread$Builder$OfVirtual", List.of("name")))),
      new Access("internal/WorkerThreads.java", "Class.forName(\"java.lang.Thread$Builder\"), \"factory\"",
          List.of(new Methods("java.lang.Thread$Builder", List.of("factory")))));

  @Test
  void everyReflectiveAccessInTheCodeIsListed() throws IOException {
    List<String> unlisted = new ArrayList<>();
    for (Map.Entry<String, String> line : reflectiveLines(SOURCES).entrySet()) {
      String problem = unlisted(line.getKey(), line.getValue());
      if (problem != null) {
        unlisted.add(problem);
      }
    }
    assertEquals(List.of(), unlisted);
  }

  /** What a build that adds an access without its entry shows. */
  @Test
  void anUnlistedAccessIsReportedWithWhatToAdd() {
    String problem = unlisted("dev/brace/runtime/internal/http/FrameworkRetryAfter.java:120",
        "return new OkHttpHeaders(level.getMethod(\"headers\"));");
    assertEquals("dev/brace/runtime/internal/http/FrameworkRetryAfter.java:120 reaches code reflectively"
        + " (return new OkHttpHeaders(level.getMethod(\"headers\"));), and ReflectiveAccessesTest lists nothing a native"
        + " image needs for it: add the entry to " + METADATA + " and list the access here", problem);
  }

  @Test
  void everyListedAccessIsStillInTheCode() throws IOException {
    Map<String, String> lines = reflectiveLines(SOURCES);
    List<String> stale = new ArrayList<>();
    for (Access access : ACCESSES) {
      boolean found = lines.entrySet().stream().anyMatch(line ->
          line.getKey().startsWith("dev/brace/runtime/" + access.file() + ":") && line.getValue().contains(access.code()));
      if (!found) {
        stale.add(access.file() + ": " + access.code());
      }
    }
    assertEquals(List.of(), stale, "listed, but no longer in the code: take them out, and their metadata if nothing else needs it");
  }

  @Test
  void everyEntryTheAccessesNeedIsInTheShippedMetadata() throws IOException {
    Map<String, Object> metadata = Json.object(Files.readString(METADATA, StandardCharsets.UTF_8));
    List<Map<String, Object>> reflection = Json.objects(metadata.get("reflection"));
    List<Map<String, Object>> resources = Json.objects(metadata.get("resources"));
    List<String> missing = new ArrayList<>();
    for (Access access : ACCESSES) {
      for (Need need : access.needs()) {
        boolean present;
        if (need instanceof PublicMethods methods) {
          present = reflection.stream().anyMatch(entry ->
              methods.type().equals(entry.get("type")) && Boolean.TRUE.equals(entry.get("allPublicMethods")));
        } else if (need instanceof Methods methods) {
          present = reflection.stream().anyMatch(entry -> methods.type().equals(entry.get("type"))
              && Json.objects(entry.getOrDefault("methods", List.of())).stream().map(method -> method.get("name")).toList()
                  .containsAll(methods.names()));
        } else if (need instanceof Present type) {
          present = reflection.stream().anyMatch(entry -> type.type().equals(entry.get("type"))
              && entry.get("condition") instanceof Map<?, ?> condition && type.type().equals(condition.get("typeReached")));
        } else if (need instanceof Resource resource) {
          present = resources.stream().anyMatch(entry -> resource.glob().equals(entry.get("glob")));
        } else {
          present = !((Elsewhere) need).why().isBlank();
        }
        if (!present) {
          missing.add(access.file() + " (" + access.code() + ") needs " + need);
        }
      }
    }
    assertEquals(List.of(), missing, METADATA + " lacks what the code reaches");
  }

  /** Framework types are reached only where the application has the framework: their entries say so. */
  @Test
  void frameworkEntriesAreConditionalOnTheFramework() throws IOException {
    List<Map<String, Object>> reflection =
        Json.objects(Json.object(Files.readString(METADATA, StandardCharsets.UTF_8)).get("reflection"));
    for (Map<String, Object> entry : reflection) {
      String type = (String) entry.get("type");
      if (Stream.of("org.springframework.", "feign.", "retrofit2.", "okhttp3.", "io.opentelemetry.", "io.micrometer.")
          .anyMatch(type::startsWith)) {
        assertTrue(entry.get("condition") instanceof Map<?, ?> condition && type.equals(condition.get("typeReached")),
            type + " is reached only when the application has it, so its entry must be conditional on it");
      }
    }
  }

  /** @return null when the line's access is listed, else the problem */
  private static String unlisted(String where, String line) {
    String file = where.substring("dev/brace/runtime/".length(), where.lastIndexOf(':'));
    boolean listed = ACCESSES.stream().anyMatch(access -> access.file().equals(file) && line.contains(access.code()));
    return listed ? null : where + " reaches code reflectively (" + line + "), and ReflectiveAccessesTest lists nothing"
        + " a native image needs for it: add the entry to " + METADATA + " and list the access here";
  }

  /** @return by {@code path:line}, each line of code (not a comment) that reaches something reflectively */
  private static Map<String, String> reflectiveLines(Path root) throws IOException {
    Map<String, String> found = new LinkedHashMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files.filter(path -> path.toString().endsWith(".java")).sorted()::iterator) {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
          String line = lines.get(i).trim();
          if (line.startsWith("*") || line.startsWith("/*") || line.startsWith("//") || !REFLECTIVE.matcher(line).find()) {
            continue;
          }
          found.put(root.relativize(file).toString().replace('\\', '/') + ":" + (i + 1), line);
        }
      }
    }
    return found;
  }

  /** Just enough of JSON to read the metadata: objects, arrays, strings, booleans. */
  private static final class Json {
    private final String text;
    private int at;

    private Json(String text) {
      this.text = text;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
      return (Map<String, Object>) new Json(text).value();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> objects(Object array) {
      return array == null ? List.of() : (List<Map<String, Object>>) array;
    }

    private Object value() {
      skipSpace();
      char next = text.charAt(at);
      if (next == '{') {
        Map<String, Object> object = new LinkedHashMap<>();
        at++;
        while (skipSpace() != '}') {
          String key = string();
          skipSpace();
          at++; // the colon
          object.put(key, value());
          if (skipSpace() == ',') {
            at++;
          }
        }
        at++;
        return object;
      }
      if (next == '[') {
        List<Object> array = new ArrayList<>();
        at++;
        while (skipSpace() != ']') {
          array.add(value());
          if (skipSpace() == ',') {
            at++;
          }
        }
        at++;
        return array;
      }
      if (next == '"') {
        return string();
      }
      for (String literal : List.of("true", "false", "null")) {
        if (text.startsWith(literal, at)) {
          at += literal.length();
          return literal.equals("null") ? null : Boolean.valueOf(literal);
        }
      }
      throw new IllegalArgumentException("unexpected " + next + " at " + at + " of " + METADATA);
    }

    private String string() {
      StringBuilder out = new StringBuilder();
      at++;
      for (char c = text.charAt(at); c != '"'; c = text.charAt(++at)) {
        out.append(c == '\\' ? text.charAt(++at) : c);
      }
      at++;
      return out.toString();
    }

    private char skipSpace() {
      while (Character.isWhitespace(text.charAt(at))) {
        at++;
      }
      return text.charAt(at);
    }
  }
}
