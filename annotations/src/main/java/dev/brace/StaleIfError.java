package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Answers a failed call with the latest result the same call returned for the same key, when that
 * result is no older than {@link #maxAge()} (after RFC 5861's {@code stale-if-error}). Every result
 * the call returns is remembered per key, at most {@link #maxEntries()} keys. Sits between
 * {@code @Fallback} and {@code @Retry}: a stale answer is preferred to the fallback's, and only a
 * call whose retries are spent (or refused) is answered from memory. Configured under the call
 * name.
 *
 * <p>With {@link #fresh()} above zero, a remembered result younger than it is returned without
 * calling the dependency at all, and concurrent calls for one key that find no such result make
 * one call at a time: the others wait for its outcome and share it.
 *
 * <p>Not for {@code void} methods, which have no result to remember.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface StaleIfError {

  /** {@return how old a remembered result may be and still answer a failure, a duration} */
  String maxAge() default "10m";

  /**
   * {@return how long a remembered result answers without calling the dependency, a duration} 0
   * (the default) means every call calls; at most {@link #maxAge()}.
   */
  String fresh() default "0ms";

  /** {@return the most keys remembered} The least recently used go first. At least 1. */
  int maxEntries() default 10000;

  /**
   * {@return a key template ({@code "{userId}"}, {@code "user:{request.userId}"})} Empty (the
   * default) means every argument, compared by {@code equals}.
   */
  String key() default "";

  /** {@return the failures answered from memory, as the failure itself or one of its causes (at most 16 deep)} */
  Class<? extends Throwable>[] on() default {Exception.class};

  /** {@return the failures never answered from memory, as the failure or any of its causes, even when it matches {@link #on()}} */
  Class<? extends Throwable>[] ignore() default {};
}
