package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How much a call matters when its bulkhead is under pressure. A tag of the call, not a setting of
 * the bulkhead: calls of different criticality share one named bulkhead, and with limit L and
 * {@code n} calls in flight it admits a {@link Level#CRITICAL} call while {@code n < L}, a {@link
 * Level#DEFAULT} call while {@code n < ceil(L · defaultShare)} and a {@link Level#SHEDDABLE} call
 * while {@code n < ceil(L · sheddableShare)} (each at least 1). A call without this annotation is
 * {@link Level#DEFAULT}. On a method it replaces the interface's.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Criticality {

  /** {@return the call's criticality} */
  Level value() default Level.DEFAULT;

  /** The criticalities, most important first. */
  enum Level {
    /** Admitted up to the whole limit: refused last. */
    CRITICAL,
    /** Admitted up to {@code defaultShare} of the limit; every call without a tag. */
    DEFAULT,
    /** Admitted up to {@code sheddableShare} of the limit: refused first. */
    SHEDDABLE
  }
}
