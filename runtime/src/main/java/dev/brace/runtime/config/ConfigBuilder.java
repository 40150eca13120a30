package dev.brace.runtime.config;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Durations;
import dev.brace.runtime.internal.Message;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The shared mechanics of the per-kind builders: values are kept by attribute name, so a layer
 * (annotation, programmatic, environment) holds only what it sets and layers merge with {@link
 * #overlay}. Every setter checks its value and throws {@link ConfigurationException} naming the
 * instance, the attribute, the value and the accepted form.
 *
 * @param <B> the concrete builder, for fluent setters
 */
public abstract class ConfigBuilder<B extends ConfigBuilder<B>> {

  private final Kind kind;
  private final String name;
  private final Class<? extends Annotation> annotation;
  private final Map<String, Object> values = new LinkedHashMap<>();
  /** Where generated code says the pattern is written, for describing its source; not a setting. */
  private String declaredOnType;

  ConfigBuilder(Kind kind, String name, Class<? extends Annotation> annotation) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.name = checkName(kind, name);
    this.annotation = annotation;
  }

  private static String checkName(Kind kind, String name) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException(Message.BLANK_NAME.format(kind.description(), name));
    }
    return name;
  }

  /**
   * @return the checked, immutable config
   * @throws dev.brace.runtime.ConfigurationException when values contradict each other or a
   *     required one is missing
   */
  public abstract InstanceConfig build();

  /** @return the kind of instance this builds */
  public final Kind kind() {
    return kind;
  }

  /** @return the instance's name */
  public final String name() {
    return name;
  }

  /**
   * Copies every value that {@code layer} sets, replacing this builder's.
   *
   * @param layer a builder of the same kind, usually a higher-precedence layer
   * @return this builder
   */
  public final B overlay(B layer) {
    Objects.requireNonNull(layer, "layer");
    values.putAll(((ConfigBuilder<?>) layer).values);
    return self();
  }

  /**
   * Says the pattern is written on an interface, as the default of its methods, rather than on a
   * method: {@code Registry.describe()} then names its settings' source {@code annotation on
   * Interface}. Generated code calls it; it sets nothing, and a copy by {@link #overlay} does not
   * take it.
   *
   * @param type the interface as messages name it ({@code RecsClient}, {@code Outer.Inner})
   * @return this builder
   * @throws NullPointerException when {@code type} is null
   */
  public final B declaredOnType(String type) {
    this.declaredOnType = Objects.requireNonNull(type, "type");
    return self();
  }

  /** @return the interface the pattern is written on, or null when it is written on a method or in code */
  public final String typeDeclaredOn() {
    return declaredOnType;
  }

  /** @return the attributes this builder sets, by name, in the order they were set */
  public final Map<String, Object> explicitValues() {
    return Collections.unmodifiableMap(values);
  }

  /**
   * @return every attribute with the value a config built now would have (defaults applied),
   *     text attributes first in annotation order, then those only code can set
   */
  final Map<String, Object> effectiveValues() {
    Map<String, Object> effective = new LinkedHashMap<>();
    for (String attribute : attributes()) {
      if (values.containsKey(attribute) || hasDefault(attribute)) {
        effective.put(attribute, get(attribute));
      }
    }
    return Collections.unmodifiableMap(effective);
  }

  /** Every attribute: those settable from text, then the annotation's others (exception filters, predicates, keys). */
  private List<String> attributes() {
    List<String> attributes = new java.util.ArrayList<>(textAttributes());
    if (annotation != null) {
      java.util.Arrays.stream(annotation.getDeclaredMethods())
          .map(java.lang.reflect.Method::getName)
          .filter(attribute -> !attribute.equals("name") && !attribute.equals("method") && !attributes.contains(attribute))
          .sorted()
          .forEach(attributes::add);
    }
    return attributes;
  }

  /**
   * The attributes that can be set from text (environment variables, system properties), each
   * with the parser that turns text into the typed setter's argument. Exception filters and
   * result predicates are code, not text, so they are not among them.
   */
  abstract Map<String, BiConsumer<B, String>> textSetters();

  /** @return the attributes {@link #setText} accepts, in annotation order */
  public final Set<String> textAttributes() {
    return textSetters().keySet();
  }

  /**
   * Sets one attribute from text with the same checks as its typed setter.
   *
   * @param attribute the attribute as written in the annotation ({@code maxAttempts})
   * @param text the value, e.g. {@code "5"}, {@code "250ms"}, {@code "FULL"}
   * @return this builder
   * @throws ConfigurationException when the text does not parse or is out of range
   * @throws IllegalArgumentException when the attribute cannot be set from text
   */
  public final B setText(String attribute, String text) {
    BiConsumer<B, String> setter = textSetters().get(attribute);
    if (setter == null) {
      throw new IllegalArgumentException(Message.UNKNOWN_ATTRIBUTE.format(kind.description(), attribute, textAttributes()));
    }
    setter.accept(self(), Objects.requireNonNull(text, "text").trim());
    return self();
  }

  final int integer(String attribute, String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException notAnInteger) {
      throw invalid(attribute, text, "an integer");
    }
  }

  final double decimal(String attribute, String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException notANumber) {
      throw invalid(attribute, text, "a decimal number");
    }
  }

  final boolean flag(String attribute, String text) {
    if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(text);
    }
    throw invalid(attribute, text, "true or false");
  }

  final <E extends Enum<E>> E constant(String attribute, String text, Class<E> type) {
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(text)) {
        return constant;
      }
    }
    throw invalid(attribute, text, "one of " + java.util.Arrays.toString(type.getEnumConstants()));
  }

  @SuppressWarnings("unchecked")
  final B self() {
    return (B) this;
  }

  final B putAll(Map<String, Object> checkedValues) {
    values.putAll(checkedValues);
    return self();
  }

  final B put(String attribute, Object value) {
    values.put(attribute, value);
    return self();
  }

  /** The value set for {@code attribute}, else the annotation's default. */
  @SuppressWarnings("unchecked")
  final <T> T get(String attribute) {
    if (values.containsKey(attribute)) {
      return (T) values.get(attribute);
    }
    return (T) defaultValue(attribute);
  }

  /** A required attribute (a limiter's permits, a timeout's duration) has none; its config refuses to build without it. */
  private boolean hasDefault(String attribute) {
    return attribute.equals(BACKEND) || annotation == null || AnnotationDefaults.hasDefault(annotation, attribute);
  }

  /** The default of an attribute: the annotation's, converted to the config's type. */
  Object defaultValue(String attribute) {
    if (attribute.equals(BACKEND)) {
      // Not an annotation attribute: where state lives is the deployment's choice, not the code's.
      return dev.brace.runtime.Backend.LOCAL;
    }
    return convertDefault(attribute, AnnotationDefaults.of(annotation, attribute));
  }

  /** The attribute of breakers and limiters that names the backend keeping their state. */
  static final String BACKEND = "backend";

  /**
   * @param value a backend's name as given to {@code Registry.builder().backend(name, ...)}
   * @return this
   */
  final B checkedBackend(String value) {
    if (value == null || !value.matches("[A-Za-z0-9_-]+")) {
      throw invalid(BACKEND, value, "a backend name (letters, digits, - and _), e.g. local or redis");
    }
    return put(BACKEND, value);
  }

  /**
   * Annotation defaults come as the annotation's types; converted here by their shape, once for
   * every kind: exception classes become a list, a predicate class ({@code Predicate.class}, the
   * "none" default) becomes null, and the text of an attribute whose setter takes a {@link
   * Duration} becomes a duration (an empty text, "none", becomes zero).
   */
  private Object convertDefault(String attribute, Object annotationDefault) {
    if (annotationDefault instanceof Class<?>[]) {
      return classesOf(annotationDefault);
    }
    if (annotationDefault instanceof Class<?>) {
      return null;
    }
    if (annotationDefault instanceof String && takesDuration(attribute)) {
      String text = (String) annotationDefault;
      return text.isEmpty() ? Duration.ZERO : Durations.parse(text);
    }
    return annotationDefault;
  }

  private boolean takesDuration(String attribute) {
    try {
      getClass().getMethod(kind.property(attribute), Duration.class);
      return true;
    } catch (NoSuchMethodException noDurationSetter) {
      return false;
    }
  }

  @SuppressWarnings("unchecked")
  static List<Class<? extends Throwable>> classesOf(Object annotationDefault) {
    return List.of((Class<? extends Throwable>[]) annotationDefault);
  }

  final ConfigurationException invalid(String attribute, Object value, String accepted) {
    return new ConfigurationException(
        kind, name, attribute, value == null ? null : String.valueOf(value), accepted);
  }

  final int atLeast(String attribute, int value, int minimum) {
    if (value < minimum) {
      throw invalid(attribute, value, "an integer ≥ " + minimum);
    }
    return value;
  }

  final int between(String attribute, int value, int minimum, int maximum) {
    if (value < minimum || value > maximum) {
      throw invalid(attribute, value, "an integer from " + minimum + " to " + maximum);
    }
    return value;
  }

  /**
   * A retry budget's name as an attribute names it: empty for none, else letters, digits and
   * {@code . _ - :}, the characters that map one to one onto its {@code brace.retrybudget.<name>.}
   * property and stay readable in its {@code BRACE_RETRYBUDGET_<NAME>_} variable.
   */
  final String budgetName(String attribute, String value) {
    if (value == null || !(value.isEmpty() || value.matches("[A-Za-z0-9._:-]+"))) {
      throw invalid(attribute, value, "a retry budget's name (letters, digits, . _ - and :), or \"\" for none");
    }
    return value;
  }

  final Duration duration(String attribute, String text, boolean positive) {
    if (text == null) {
      throw invalid(attribute, null, Durations.ACCEPTED_FORM);
    }
    Duration parsed;
    try {
      parsed = Durations.parse(text);
    } catch (IllegalArgumentException badText) {
      boolean tooLong = badText.getMessage() != null && badText.getMessage().contains("too long");
      throw invalid(attribute, text, tooLong ? "a duration of at most " + Durations.LONGEST : Durations.ACCEPTED_FORM);
    }
    return duration(attribute, parsed, positive);
  }

  /**
   * For an attribute whose empty text means "none" ({@code maxDuration}, {@code slowCall}).
   *
   * @return zero for an empty text, else the positive duration it gives
   */
  final Duration durationOrNone(String attribute, String text) {
    return text != null && text.isEmpty() ? Duration.ZERO : duration(attribute, text, true);
  }

  final Duration duration(String attribute, Duration value, boolean positive) {
    if (value == null) {
      throw invalid(attribute, null, Durations.ACCEPTED_FORM);
    }
    if (value.isNegative() || (positive && value.isZero())) {
      throw invalid(
          attribute,
          value.isNegative() ? value.toString() : Durations.describe(value),
          positive ? "a duration greater than zero" : "a duration of zero or more");
    }
    return value;
  }

  /** @return {@code value}, a fraction from 0 to 1 (a share of retries, a rate of injected faults) */
  final double fraction(String attribute, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw invalid(attribute, value, "a number from 0 to 1");
    }
    return value;
  }

  final double finiteAtLeast(String attribute, double value, double minimum) {
    if (Double.isNaN(value) || Double.isInfinite(value) || value < minimum) {
      throw invalid(attribute, value, "a finite number ≥ " + minimum);
    }
    return value;
  }

  /** An ordered, immutable table of text setters. */
  static final class TextSetters<B> {
    private final Map<String, BiConsumer<B, String>> table = new LinkedHashMap<>();

    TextSetters<B> add(String attribute, BiConsumer<B, String> setter) {
      table.put(attribute, setter);
      return this;
    }

    Map<String, BiConsumer<B, String>> build() {
      return Collections.unmodifiableMap(table);
    }
  }

  @SafeVarargs
  static List<Class<? extends Throwable>> classes(Class<? extends Throwable>... types) {
    Objects.requireNonNull(types, "exception types");
    for (Class<? extends Throwable> type : types) {
      Objects.requireNonNull(type, "exception type");
    }
    return List.of(types);
  }
}
