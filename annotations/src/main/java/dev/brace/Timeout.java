package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Bounds one attempt of a call. Innermost of all patterns, so a circuit breaker counts an expired
 * attempt as a failure. Call-scoped: configured under the call name unless {@link #name()} says
 * otherwise. The caller gets {@code TimeoutExceededException} at the deadline.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Timeout {

  /** {@return the deadline of one attempt, a duration such as {@code "1s"}} Required. */
  String value();

  /** {@return the configuration name} Empty means the call name. */
  String name() default "";

  /** {@return how a synchronous call is bounded} */
  Mode mode() default Mode.INTERRUPT;

  /** How a synchronous call is stopped at its deadline. */
  enum Mode {
    /**
     * The call runs on the caller's thread, which is interrupted at the deadline. The caller gets
     * {@code TimeoutExceededException} even if the call ignores the interrupt and returns late;
     * only the interrupt Brace caused is cleared.
     */
    INTERRUPT,
    /**
     * The call runs on another thread (a virtual thread where the JDK has them); the caller is
     * released exactly at the deadline and the worker is interrupted and left to finish.
     */
    ABANDON
  }
}
