package dev.brace.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.RateLimit;
import dev.brace.Retry;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The runtime's table of defaults says what the annotations say: every attribute with a default,
 * with that default, and none that the annotation leaves required. The annotations are read here
 * by reflection, so the runtime need not be.
 */
class AnnotationDefaultsTest {
  @Test
  void theTableHoldsEveryAnnotationsDefaultsAndNothingElse() {
    Map<Class<? extends Annotation>, Map<String, Object>> table = AnnotationDefaults.table();
    List<String> disagreements = new ArrayList<>();
    for (Kind kind : Kind.annotated()) {
      Class<? extends Annotation> annotation = kind.annotation();
      Map<String, Object> written = table.getOrDefault(annotation, Map.of());
      int withDefault = 0;
      for (Method attribute : annotation.getDeclaredMethods()) {
        Object expected = attribute.getDefaultValue();
        Object actual = written.get(attribute.getName());
        String where = "@" + annotation.getSimpleName() + "." + attribute.getName();
        if (expected == null) {
          if (actual != null) {
            disagreements.add(where + " is required, but the table gives it " + actual);
          }
          continue;
        }
        withDefault++;
        if (!Arrays.deepEquals(new Object[] {expected}, new Object[] {actual})) {
          disagreements.add(where + " defaults to " + describe(expected) + ", the table says " + describe(actual));
        }
      }
      if (written.size() != withDefault) {
        disagreements.add("@" + annotation.getSimpleName() + ": the table has " + written.keySet() + ", more than its attributes");
      }
    }
    assertEquals(List.of(), disagreements);
  }

  @Test
  void aRequiredAttributeHasNoDefault() {
    assertFalse(AnnotationDefaults.hasDefault(RateLimit.class, "permits"));
    assertThrows(IllegalStateException.class, () -> AnnotationDefaults.of(RateLimit.class, "permits"));
    assertTrue(AnnotationDefaults.hasDefault(Retry.class, "maxAttempts"));
    assertEquals(3, AnnotationDefaults.of(Retry.class, "maxAttempts"));
  }

  @Test
  void aListOfTypesIsACopyEachTime() {
    Class<?>[] first = (Class<?>[]) AnnotationDefaults.of(Retry.class, "on");
    first[0] = Error.class;
    assertEquals(Exception.class, ((Class<?>[]) AnnotationDefaults.of(Retry.class, "on"))[0]);
  }

  private static String describe(Object value) {
    return value instanceof Object[] array ? Arrays.toString(array) : String.valueOf(value);
  }
}
