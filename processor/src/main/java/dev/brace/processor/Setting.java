package dev.brace.processor;

import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.type.TypeMirror;

/**
 * One attribute of an annotation as it is passed to the runtime config: {@code setter(value)}.
 *
 * @param attribute the annotation attribute ({@code maxAttempts})
 * @param setter the config builder's setter ({@code maxAttempts}; the timeout's value is {@code duration})
 * @param value an {@link Integer}, {@link Double}, {@link String}, {@link EnumConstant}, {@link
 *     Types} or {@link NewInstance}
 */
record Setting(String attribute, String setter, Object value) {

  /**
   * A constant of an enum nested in an annotation ({@code Retry.Jitter.FULL}).
   *
   * @param type the enum type
   * @param constant its simple name
   */
  record EnumConstant(TypeMirror type, String constant) {
    @Override
    public String toString() {
      return type + "." + constant;
    }
  }

  /**
   * Exception classes ({@code on}, {@code ignore}).
   *
   * @param types the classes, in order
   */
  record Types(List<TypeMirror> types) {
    @Override
    public String toString() {
      return types.stream().map(TypeMirror::toString).collect(Collectors.joining(", ", "{", "}"));
    }
  }

  /**
   * A class the wrapper instantiates ({@code onResult = NonEmpty.class} is {@code new NonEmpty()}).
   *
   * @param type the class
   */
  record NewInstance(TypeMirror type) {
    @Override
    public String toString() {
      return type + ".class";
    }
  }

  /** @return the value as a user wrote it, for messages and for comparing two sites */
  String describe() {
    return value instanceof String text ? "\"" + text + "\"" : String.valueOf(value);
  }
}
