package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Returns the value of another method of the interface when the call fails. Outermost of all
 * patterns, so it also answers for every refusal (open circuit, rate limited, bulkhead full,
 * timeout) that matches {@link #on()}. Configured under the call name.
 *
 * <p>The fallback method is a {@code default} or {@code static} method of the same interface with
 * the same parameters, returning the same type or a subtype, optionally with one more last
 * parameter of a {@code Throwable} type that receives the failure (or, when that type fits only
 * the cause that matched {@link #on()}, that cause). A fallback that throws propagates its own
 * exception with the original attached as suppressed.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Fallback {

  /** {@return the name of the fallback method} Required. */
  String method();

  /** {@return the failures answered by the fallback, as the failure itself or one of its causes (at most 16 deep)} */
  Class<? extends Throwable>[] on() default {Exception.class};

  /** {@return the failures never answered, as the failure or any of its causes, even when it matches {@link #on()}} */
  Class<? extends Throwable>[] ignore() default {};
}
