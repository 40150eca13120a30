package dev.brace.it.matrix;

import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.List;
import java.util.Map;

/**
 * One behaviour the matrix runs through every form, layer, backend and listener. A scenario
 * brings two annotated interfaces: one carrying the settings it needs (the annotation layer) and
 * a decoy whose values differ, so a cell of the programmatic or environment layer passes only
 * when that layer's values really replace the decoy's. A {@code Stack}'s own part settings play
 * the annotation's role, with the same two sets of values.
 */
abstract class Scenario {
  /**
   * Ends the decoy's breaker, limiter and bulkhead names: one name is one shared instance, so the
   * decoy's other settings go by a name of its own.
   */
  static final String DECOY = "-decoy";

  final String title;
  final Class<? extends Shape> annotated;
  final Class<? extends Shape> decoy;

  Scenario(String title, Class<? extends Shape> annotated, Class<? extends Shape> decoy) {
    this.title = title;
    this.annotated = annotated;
    this.decoy = decoy;
  }

  /** @return the decoy's name for a breaker, limiter or bulkhead */
  static String decoy(String name) {
    return name + DECOY;
  }

  /** @return the annotated interface's name, or the decoy's */
  static String named(String name, boolean annotated) {
    return annotated ? name : decoy(name);
  }

  /** @return the breakers the scenario uses, by their annotated names; a backend holds breaker and limiter state only */
  List<String> breakers() {
    return List.of();
  }

  /** @return the rate limiters the scenario uses */
  List<String> limiters() {
    return List.of();
  }

  /**
   * Adds the Stack's parts: the annotated interface's values or the decoy's. A fallback function
   * reports what it received to {@code script}, as the proxy does for a fallback method.
   */
  abstract void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script);

  /** Sets, through {@code Registry.builder()}, what replaces the decoy values; {@code call} is the form's call name. */
  abstract void programmatic(Registry.Builder registry, String call);

  /** @return the same settings as environment variables */
  abstract Map<String, String> environment(String call);

  /**
   * Sets, in the annotation layer's cells, what no annotation can say (a retry budget's numbers),
   * so that layer's cells differ from the others only where annotations can.
   */
  void beyondAnnotations(Registry.Builder registry) {}

  /** @return why no annotation (nor a Stack's part) can carry the scenario's settings, or null when one can */
  String annotationsCannot() {
    return null;
  }

  /**
   * @return system properties every cell of the scenario runs with, whatever its layer (a global
   *     switch, such as {@code brace.chaos.enabled}); none by default
   */
  Map<String, String> systemProperties() {
    return Map.of();
  }

  /** @return why no environment variable can express {@link #programmatic}, or null when one can */
  String environmentCannot() {
    return null;
  }

  /** Drives the scenario through the cell's form and asserts what every form must do. */
  abstract void run(Cell cell) throws Exception;

  /**
   * @param stream {@code Flux} or {@code Flow}: the stream type the form returns
   * @return why the scenario cannot run through a method returning one, or null when it can
   */
  String streamCannot(String stream) {
    return null;
  }

  /** @return the processor's error tag for a pattern a method returning {@code stream} cannot have */
  static String unsupported(String stream) {
    return "[brace:" + stream.toLowerCase(java.util.Locale.ROOT) + "-pattern-unsupported]";
  }

  /** @return why the cell cannot apply, or null */
  final String notApplicable(Form form, Layer layer, BackendChoice backend) {
    if (form.stream() != null && streamCannot(form.stream()) != null) {
      return streamCannot(form.stream());
    }
    if (backend == BackendChoice.MEMORY && breakers().isEmpty() && limiters().isEmpty()) {
      return "no circuit breaker or rate limiter in this scenario, and a Backend holds only their state";
    }
    if (layer == Layer.ENVIRONMENT) {
      return environmentCannot();
    }
    if (layer == Layer.ANNOTATION) {
      return annotationsCannot();
    }
    return null;
  }

  /**
   * @return {@code BRACE_<KIND>_<NAME>_<PROPERTY>} for an instance name, the name upper-cased
   *     with every character that is not a letter or digit turned into {@code _}
   */
  static String env(String kind, String name, String property) {
    return "BRACE_" + kind + "_" + name.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_" + property;
  }

  /** @return the messages of {@code failures}, in order */
  static List<String> messages(Throwable[] failures) {
    return java.util.Arrays.stream(failures).map(Throwable::getMessage).collect(java.util.stream.Collectors.toList());
  }

  @Override
  public String toString() {
    return title;
  }
}
