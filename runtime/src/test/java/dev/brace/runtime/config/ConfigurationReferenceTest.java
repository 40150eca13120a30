package dev.brace.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/configuration.md lists exactly the keys the code reads, with the code's defaults. */
class ConfigurationReferenceTest {

  @Test
  void theReferenceTablesMatchTheCode() throws IOException {
    Map<String, List<String[]>> documented = tables(Files.readString(Path.of("..", "docs", "configuration.md")));
    List<String> mismatches = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      List<String[]> rows = documented.get(kind.key());
      if (rows == null) {
        mismatches.add("no section '## " + kind.key() + "'");
        continue;
      }
      List<String> expected = new ArrayList<>();
      ConfigBuilder<?> builder = kind.builder("reference");
      for (String attribute : builder.textAttributes()) {
        expected.add(row(kind, attribute, defaultOf(builder, attribute)));
      }
      expected.add(row(kind, "enabled", "true"));
      List<String> actual = new ArrayList<>();
      for (String[] cells : rows) {
        actual.add(String.join(" | ", cells[0], cells[1], cells[2], cells[4]));
      }
      if (!expected.equals(actual)) {
        mismatches.add(kind.key() + ":\n  expected " + expected + "\n  documented " + actual);
      }
    }
    assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
  }

  private static String row(Kind kind, String attribute, String defaultValue) {
    String property = kind == Kind.TIMEOUT && attribute.equals("value") ? "duration" : attribute;
    String upper = property.replaceAll("([A-Z])", "_$1").toUpperCase();
    String kebab = property.replaceAll("([A-Z])", "-$1").toLowerCase();
    return String.join(" | ", attribute, "`_" + upper + "`", "`." + kebab + "`", defaultValue);
  }

  private static String defaultOf(ConfigBuilder<?> builder, String attribute) {
    Object value;
    try {
      value = builder.defaultValue(attribute);
    } catch (IllegalStateException required) {
      return "(required)";
    }
    Object written = builder.kind() == Kind.RETRYBUDGET || !onAnnotation(builder.kind(), attribute)
        ? null
        : AnnotationDefaults.of(annotationOf(builder.kind()), attribute);
    if (written instanceof String) {
      return ((String) written).isEmpty() ? "(none)" : (String) written;
    }
    if (value instanceof Duration) {
      Duration duration = (Duration) value;
      return duration.isZero() && attribute.equals("maxDuration") ? "(none)" : Durations.describe(duration);
    }
    if (value == null || "".equals(value)) {
      return "(none)";
    }
    return String.valueOf(value);
  }

  /** Some settings ({@code backend}) exist only outside the annotations. */
  private static boolean onAnnotation(Kind kind, String attribute) {
    try {
      annotationOf(kind).getMethod(attribute);
      return true;
    } catch (NoSuchMethodException configurationOnly) {
      return false;
    }
  }

  private static Class<? extends java.lang.annotation.Annotation> annotationOf(Kind kind) {
    switch (kind) {
      case RETRY:
        return dev.brace.Retry.class;
      case CIRCUITBREAKER:
        return dev.brace.CircuitBreaker.class;
      case RATELIMIT:
        return dev.brace.RateLimit.class;
      case BULKHEAD:
        return dev.brace.Bulkhead.class;
      case TIMEOUT:
        return dev.brace.Timeout.class;
      case HEDGE:
        return dev.brace.Hedge.class;
      default:
        return dev.brace.Fallback.class;
    }
  }

  private static Map<String, List<String[]>> tables(String markdown) {
    Map<String, List<String[]>> tables = new LinkedHashMap<>();
    String section = null;
    for (String line : markdown.split("\n")) {
      if (line.startsWith("## ")) {
        section = line.substring(3).split(" ")[0];
        tables.put(section, new ArrayList<>());
      } else if (section != null && line.startsWith("| ") && !line.startsWith("| attribute") && !line.startsWith("|---")) {
        String[] cells = line.substring(2, line.length() - 2).split(" \\| ");
        tables.get(section).add(cells);
      }
    }
    return tables;
  }

  /** The switches outside the per-kind tables: documented under the names the code reads. */
  @Test
  void theGlobalSwitchesAreDocumentedByTheirKeys() throws IOException {
    String reference = Files.readString(Path.of("..", "docs", "configuration.md"));
    for (String key : List.of("BRACE_ENABLED", "-Dbrace.enabled",
        dev.brace.runtime.internal.config.ConfigKeys.METRICS_PER_KEY_ENVIRONMENT + "=true",
        "-D" + dev.brace.runtime.internal.config.ConfigKeys.METRICS_PER_KEY_PROPERTY + "=true",
        dev.brace.runtime.internal.config.ConfigKeys.DEADLINES_ENVIRONMENT + "=false",
        "-D" + dev.brace.runtime.internal.config.ConfigKeys.DEADLINES_PROPERTY + "=false",
        dev.brace.runtime.internal.config.ConfigKeys.CHAOS_ENABLED_ENVIRONMENT + "=true",
        "-D" + dev.brace.runtime.internal.config.ConfigKeys.CHAOS_ENABLED_PROPERTY + "=true")) {
      assertTrue(reference.contains("`" + key), "docs/configuration.md does not mention " + key);
    }
  }

  @Test
  void theTableParserSeesEveryKind() throws IOException {
    assertEquals(Kind.values().length, tables(Files.readString(Path.of("..", "docs", "configuration.md"))).size());
  }
}
