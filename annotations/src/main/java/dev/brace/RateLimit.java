package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits the rate of calls with a token bucket. System-scoped: every call site that uses the same
 * {@link #name()} shares one bucket.
 *
 * <p>The bucket holds at most {@link #burst()} tokens, starts full and refills {@link #permits()}
 * tokens every {@link #per()}. A call without a token waits up to {@link #maxWait()} (roughly in
 * arrival order); a call whose token cannot arrive in time is refused at once with {@code
 * RateLimitedException}, whose {@code retryAfter()} says when one will.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RateLimit {

  /** {@return the limiter's name} Empty means the interface's simple name. */
  String name() default "";

  /** {@return the tokens added every {@link #per()}} Required; at least 1. */
  int permits();

  /** {@return the refill period, a duration} */
  String per() default "1s";

  /** {@return the bucket's capacity} 0 means {@link #permits()}. */
  int burst() default 0;

  /** {@return the longest a call waits for a token, a duration} {@code "0ms"} refuses at once. */
  String maxWait() default "0ms";

  /** {@return a key template ({@code "user:{userId}"}) for one bucket per key} */
  String key() default "";

  /** {@return the most keys kept for a keyed limiter} The least recently used idle one goes first. */
  int maxKeys() default 10000;
}
