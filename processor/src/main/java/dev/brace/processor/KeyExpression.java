package dev.brace.processor;

import java.util.List;

/**
 * A key template resolved against a method's parameters: literal text and values, concatenated.
 *
 * @param parts in template order
 */
record KeyExpression(List<Part> parts) {

  /** One piece of a template. */
  sealed interface Part permits Literal, Value {}

  /**
   * Text outside braces.
   *
   * @param text the text
   */
  record Literal(String text) implements Part {}

  /**
   * A {@code {param.prop.prop}} part.
   *
   * @param path the path as written, for the null message
   * @param steps the parameter, then each accessor call
   */
  record Value(String path, List<Step> steps) implements Part {}

  /**
   * One step of a path.
   *
   * @param path the path up to and including this step ({@code request.host})
   * @param code the parameter name for the first step, the accessor method name after
   * @param canBeNull whether the step's value is a reference (so a later step must check it)
   */
  record Step(String path, String code, boolean canBeNull) {}
}
