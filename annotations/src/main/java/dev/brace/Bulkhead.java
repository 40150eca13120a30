package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Caps the calls in flight. System-scoped: every call site that uses the same {@link #name()}
 * shares one pool of permits. A call that finds none waits up to {@link #maxWait()}, then is
 * refused with {@code BulkheadFullException}. An asynchronous call holds its permit until its
 * future completes.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Bulkhead {

  /** {@return the bulkhead's name} Empty means the interface's simple name. */
  String name() default "";

  /** {@return the most calls in flight at once} At least 1. */
  int maxConcurrent() default 10;

  /** {@return the longest a call waits for a permit, a duration} {@code "0ms"} refuses at once. */
  String maxWait() default "0ms";
}
