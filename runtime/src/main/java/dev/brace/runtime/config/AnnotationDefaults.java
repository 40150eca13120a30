package dev.brace.runtime.config;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Hedge;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import dev.brace.Timeout;
import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The annotations' defaults, for a builder built without a value, which only programmatic use does
 * (generated code passes every annotation value). A table rather than the annotation types read by
 * reflection, so a native image needs no metadata for them; {@code AnnotationDefaultsTest} holds
 * it to the annotations, where the defaults of the spec are written.
 */
final class AnnotationDefaults {
  private static final Map<Class<? extends Annotation>, Map<String, Object>> TABLE = table();

  private AnnotationDefaults() {}

  /** @return whether the annotation gives the attribute a default (a required one has none) */
  static boolean hasDefault(Class<? extends Annotation> annotation, String attribute) {
    return TABLE.getOrDefault(annotation, Map.of()).containsKey(attribute);
  }

  /**
   * @return the attribute's default, as the annotation type gives it ({@code Class[]} for a list of
   *     exception types, the enum constant, the boxed number)
   * @throws IllegalStateException when the attribute has no default, or the annotation no such attribute
   */
  static Object of(Class<? extends Annotation> annotation, String attribute) {
    Object value = TABLE.getOrDefault(annotation, Map.of()).get(attribute);
    if (value == null) {
      throw new IllegalStateException("@" + annotation.getSimpleName() + "." + attribute + " has no default; set it");
    }
    return value instanceof Class<?>[] types ? types.clone() : value;
  }

  /** @return the table: by annotation, each attribute that has a default with it */
  static Map<Class<? extends Annotation>, Map<String, Object>> table() {
    Map<Class<? extends Annotation>, Map<String, Object>> table = new HashMap<>();
    table.put(Fallback.class, defaults(
        "on", new Class<?>[] {Exception.class},
        "ignore", new Class<?>[0]));
    table.put(StaleIfError.class, defaults(
        "maxAge", "10m",
        "fresh", "0ms",
        "maxEntries", 10000,
        "key", "",
        "on", new Class<?>[] {Exception.class},
        "ignore", new Class<?>[0]));
    table.put(Retry.class, defaults(
        "name", "",
        "maxAttempts", 3,
        "delay", "100ms",
        "maxDelay", "30s",
        "multiplier", 2.0,
        "jitter", Retry.Jitter.FULL,
        "maxDuration", "",
        "on", new Class<?>[] {Exception.class},
        "ignore", new Class<?>[0],
        "onResult", Predicate.class,
        "budget", "",
        "maxRetryAfter", "60s"));
    table.put(Hedge.class, defaults(
        "name", "",
        "delay", "100ms",
        "maxHedges", 1,
        "on", new Class<?>[] {Exception.class},
        "ignore", new Class<?>[0],
        "budget", ""));
    table.put(CircuitBreaker.class, defaults(
        "name", "",
        "failureThreshold", 5,
        "successThreshold", 1,
        "resetTimeout", "30s",
        "failureRate", 0.0,
        "window", "30s",
        "windowCalls", 0,
        "minimumCalls", 20,
        "windowBuckets", 10,
        "on", new Class<?>[] {Exception.class},
        "ignore", new Class<?>[0],
        "onResult", Predicate.class,
        "key", "",
        "maxKeys", 10000,
        "slowCall", "",
        "slowCallRate", 1.0));
    table.put(RateLimit.class, defaults(
        "name", "",
        "per", "1s",
        "burst", 0,
        "maxWait", "0ms",
        "key", "",
        "maxKeys", 10000,
        "adaptive", false,
        "minPermits", 0,
        "throttledOn", new Class<?>[0],
        "decrease", 0.5,
        "increase", 0.0));
    table.put(Bulkhead.class, defaults(
        "name", "",
        "maxConcurrent", 10,
        "maxWait", "0ms",
        "adaptive", Bulkhead.Adaptive.NONE,
        "minConcurrent", 1,
        "initialConcurrent", 0,
        "defaultShare", 0.9,
        "sheddableShare", 0.5));
    table.put(Timeout.class, defaults(
        "name", "",
        "mode", Timeout.Mode.INTERRUPT));
    return Map.copyOf(table);
  }

  private static Map<String, Object> defaults(Object... attributesAndValues) {
    Map<String, Object> defaults = new HashMap<>();
    for (int i = 0; i < attributesAndValues.length; i += 2) {
      defaults.put((String) attributesAndValues[i], attributesAndValues[i + 1]);
    }
    return Map.copyOf(defaults);
  }
}
