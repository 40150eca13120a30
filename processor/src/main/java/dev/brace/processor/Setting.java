package dev.brace.processor;

import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.type.TypeMirror;

/**
 * One attribute of an annotation as it is passed to the runtime config: {@code setter(value)}.
 *
 * @param attribute the annotation attribute ({@code maxAttempts})
 * @param setter the config builder's setter ({@code maxAttempts}; the timeout's value is {@code duration})
 * @param value what was written (or defaulted)
 */
record Setting(String attribute, String setter, Value value) {

  /** An attribute's value, one of the few shapes an annotation attribute can take here. */
  sealed interface Value permits Number, Flag, Text, EnumConstant, Types, NewInstance, NoPredicate {
    /** @return the value as a user wrote it, for messages and for comparing two sites */
    String describe();
  }

  /**
   * An {@code int} or a finite {@code double}, whose {@code toString} is a Java literal.
   *
   * @param number an {@link Integer} or a {@link Double}
   */
  record Number(java.lang.Number number) implements Value {
    @Override
    public String describe() {
      return number.toString();
    }
  }

  /**
   * A {@code boolean} ({@code @RateLimit(adaptive = true)}).
   *
   * @param flag the value
   */
  record Flag(boolean flag) implements Value {
    @Override
    public String describe() {
      return Boolean.toString(flag);
    }
  }

  /**
   * A string: a name, a duration, a key template.
   *
   * @param text the string
   */
  record Text(String text) implements Value {
    @Override
    public String describe() {
      return "\"" + text + "\"";
    }
  }

  /**
   * A constant of an enum nested in an annotation ({@code Retry.Jitter.FULL}).
   *
   * @param type the enum type
   * @param constant its simple name
   */
  record EnumConstant(TypeMirror type, String constant) implements Value {
    @Override
    public String describe() {
      return type + "." + constant;
    }
  }

  /**
   * Exception classes ({@code on}, {@code ignore}).
   *
   * @param types the classes, in order
   */
  record Types(List<TypeMirror> types) implements Value {
    @Override
    public String describe() {
      return types.stream().map(TypeMirror::toString).collect(Collectors.joining(", ", "{", "}"));
    }
  }

  /**
   * A class the wrapper instantiates ({@code onResult = NonEmpty.class} is {@code new NonEmpty()}).
   *
   * @param type the class
   */
  record NewInstance(TypeMirror type) implements Value {
    @Override
    public String describe() {
      return type + ".class";
    }
  }

  /** {@code onResult} left at its default: no result is tested. Never passed to the config. */
  record NoPredicate() implements Value {
    @Override
    public String describe() {
      return "none";
    }
  }

  /** @return the value as a user wrote it, for messages and for comparing two sites */
  String describe() {
    return value.describe();
  }
}
