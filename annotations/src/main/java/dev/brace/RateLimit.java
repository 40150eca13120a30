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
 *
 * <p>With {@link #adaptive()} the limiter also listens to the dependency (an AIMD token bucket): a
 * call failing with an exception of {@link #throttledOn()}, or one carrying a {@code retryAfter()}
 * hint, multiplies the rate by {@link #decrease()} (never below {@link #minPermits()}) and, with a
 * hint, admits nothing more until it has passed (capped by {@code @Retry}'s {@code maxRetryAfter},
 * 60 s without a retry); every success adds {@link #increase()} back, up to {@link #permits()}. The
 * throttling exception still reaches the caller.
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

  /** {@return whether the rate backs off when the dependency throttles and creeps back on success} */
  boolean adaptive() default false;

  /** {@return the lowest an adaptive rate goes, per {@link #per()}} 0 means a tenth of {@link #permits()}. */
  int minPermits() default 0;

  /**
   * {@return the failures that say the dependency throttles, as the failure itself or one of its
   * causes} Empty means Brace's own {@code
   * RateLimitedException} (thrown by a deeper limiter); an exception implementing {@code
   * RetryAfterHint} with a hint counts as well.
   */
  Class<? extends Throwable>[] throttledOn() default {};

  /** {@return what a throttling failure multiplies an adaptive rate by} In (0, 1). */
  double decrease() default 0.5;

  /**
   * {@return the permits per {@link #per()} every success adds back to an adaptive rate} 0 means a
   * hundredth of {@link #permits()}.
   */
  double increase() default 0;
}
