package dev.brace.benchmarks;

import java.time.Duration;

/**
 * The settings every library is given, so that the stacks compare like with like. They match
 * the annotations on {@link BraceClients}; annotation values must be constants, hence the
 * duplicated literals there.
 */
final class Stacks {
  /** Total attempts, the first included. */
  static final int MAX_ATTEMPTS = 3;

  static final Duration RETRY_DELAY = Duration.ofMillis(100);

  /** The failing stacks' retry: two attempts, no backoff, so a failing call is two attempts back to back. */
  static final int FAILING_MAX_ATTEMPTS = 2;

  /** Classic breaker: consecutive failures that open it. */
  static final int FAILURE_THRESHOLD = 5;

  static final Duration RESET_TIMEOUT = Duration.ofSeconds(30);

  /** Rate breaker: failure rate, minimum calls and time window. */
  static final double FAILURE_RATE = 0.5;

  static final int MINIMUM_CALLS = 20;

  static final Duration WINDOW = Duration.ofSeconds(30);

  /** Permits per second: far above what two cores can ask for, so the limiter never refuses. */
  static final int PERMITS_PER_SECOND = 1_000_000_000;

  static final int MAX_CONCURRENT = 10;

  static final Duration TIMEOUT = Duration.ofSeconds(1);

  static final String FALLBACK_VALUE = "fallback";

  private Stacks() {}
}
