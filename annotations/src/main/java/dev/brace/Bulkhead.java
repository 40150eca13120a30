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
 *
 * <p>With {@link #adaptive()} set, {@link #maxConcurrent()} is a ceiling: the bulkhead's limit
 * starts at {@link #initialConcurrent()} and moves between {@link #minConcurrent()} and the ceiling
 * after every completed call, by the latency and the drops (timeouts, refusals) it sees.
 *
 * <p>Whatever the limit L, a call tagged {@link Criticality.Level#CRITICAL} is admitted while fewer
 * than L calls are in flight, a {@link Criticality.Level#DEFAULT} call (every untagged one) while
 * fewer than {@code ceil(L · defaultShare)} are, a {@link Criticality.Level#SHEDDABLE} one while fewer
 * than {@code ceil(L · sheddableShare)} are (each at least 1), so under pressure sheddable calls are
 * refused first and critical ones last.
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

  /** {@return how the limit adapts} {@link Adaptive#NONE} keeps it at {@link #maxConcurrent()}. */
  Adaptive adaptive() default Adaptive.NONE;

  /** {@return the lowest an adaptive limit goes} At least 1, at most {@link #initialConcurrent()}; ignored unless adaptive. */
  int minConcurrent() default 1;

  /**
   * {@return the limit an adaptive bulkhead starts at} 0 means {@link #maxConcurrent()}; else between
   * {@link #minConcurrent()} and {@link #maxConcurrent()}. Ignored unless adaptive.
   */
  int initialConcurrent() default 0;

  /** {@return the share of the limit {@code DEFAULT} calls may fill} In (0, 1]. */
  double defaultShare() default 0.9;

  /**
   * {@return the share of the limit {@code SHEDDABLE} calls may fill} In (0, 1] and at most {@link
   * #defaultShare()}, so a sheddable call is never admitted where an untagged one would be refused.
   */
  double sheddableShare() default 0.5;

  /**
   * How an adaptive bulkhead moves its limit after every completed call, by the update rules of
   * Netflix's concurrency-limits library for the algorithm of the same name.
   */
  enum Adaptive {
    /** A fixed limit: {@link #maxConcurrent()}. */
    NONE,
    /**
     * Additive increase, multiplicative decrease: one more after a call that saw at least half the
     * limit in flight, times 0.9 after a drop (a timed-out or refused attempt).
     */
    AIMD,
    /**
     * Compares each call's latency with a long-term average: the limit shrinks (to half at most per
     * step, smoothed) while latency rises above 1.5 times the average and grows by a small queue
     * allowance while it does not. Drops are not a signal of their own.
     */
    GRADIENT2,
    /**
     * TCP Vegas: estimates the queue from the latency over the lowest latency seen, grows while the
     * queue is short, shrinks when it is long or after a drop.
     */
    VEGAS
  }
}
