package dev.brace.runtime.config;

import java.lang.annotation.Annotation;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads an attribute's default from the annotation type itself, so the defaults of the spec are
 * written only in {@code dev.brace}. Used when a builder is built without a value, which only
 * programmatic use does: generated code passes every annotation value.
 */
final class AnnotationDefaults {
  private static final ConcurrentHashMap<String, Object> CACHE = new ConcurrentHashMap<>();

  private AnnotationDefaults() {}

  /** @return whether the annotation gives the attribute a default (a required one has none) */
  static boolean hasDefault(Class<? extends Annotation> annotation, String attribute) {
    try {
      return annotation.getMethod(attribute).getDefaultValue() != null;
    } catch (NoSuchMethodException noSuchAttribute) {
      return false;
    }
  }

  static Object of(Class<? extends Annotation> annotation, String attribute) {
    return CACHE.computeIfAbsent(
        annotation.getName() + "#" + attribute,
        key -> {
          try {
            Object value = annotation.getMethod(attribute).getDefaultValue();
            if (value == null) {
              throw new IllegalStateException(
                  "@" + annotation.getSimpleName() + "." + attribute + " has no default; set it");
            }
            return value;
          } catch (NoSuchMethodException noSuchAttribute) {
            throw new IllegalStateException(
                "@" + annotation.getSimpleName() + " has no attribute " + attribute, noSuchAttribute);
          }
        });
  }
}
