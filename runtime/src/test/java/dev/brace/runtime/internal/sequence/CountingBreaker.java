package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.OutcomeClassifier;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A breaker for the race tests and models that admits every call and counts what it is told: each
 * ticket it hands out must be completed exactly once — by an outcome ({@link #record}) or a
 * release without one — and a second completion is refused with an {@link IllegalStateException}
 * (and remembered, so a test's invariants name it even if the throw was swallowed on the way).
 *
 * <p>A test may run a step of its own at two moments, on the thread of the attempt: as a state
 * is asked for ({@link #onAcquire}, which may throw instead of admitting) and as an outcome is
 * recorded, before the attempt's state counts as completed ({@link #onRecord}).
 */
final class CountingBreaker implements CircuitBreakerInstance {
  private final String name;
  private final OutcomeClassifier classifier;
  final AtomicInteger acquired = new AtomicInteger();
  final AtomicInteger successes = new AtomicInteger();
  final AtomicInteger failures = new AtomicInteger();
  final AtomicInteger released = new AtomicInteger();
  /** The first ticket completed twice, described; null while none was. */
  final AtomicReference<String> doubleCompletion = new AtomicReference<>();
  volatile Runnable onAcquire = () -> {};
  /**
   * Whether {@link #takeNow} hands out a state (counted as {@link #acquire} counts it), as a local
   * breaker's closed circuit does; while false it answers as the interface's default does.
   */
  volatile boolean takesNow;
  volatile Runnable onRecord = () -> {};

  CountingBreaker(String name) {
    this.name = name;
    this.classifier = new OutcomeClassifier(CircuitBreakerConfig.builder(name).build());
  }

  /** One admitted call; completed by exactly one outcome or release. */
  final class CountedTicket implements Ticket {
    final int number;
    private final AtomicReference<String> completedBy = new AtomicReference<>();

    CountedTicket(int number) {
      this.number = number;
    }

    @Override
    public CircuitBreakerInstance owner() {
      return CountingBreaker.this;
    }

    void complete(String how) {
      String first = completedBy.compareAndExchange(null, how);
      if (first != null) {
        String problem = "attemptState " + number + " of " + name + " completed twice: " + first + ", then " + how;
        doubleCompletion.compareAndSet(null, problem);
        throw new IllegalStateException(problem);
      }
    }

    boolean completed() {
      return completedBy.get() != null;
    }
  }

  @Override
  public Object acquire() {
    onAcquire.run();
    return new CountedTicket(acquired.incrementAndGet());
  }

  @Override
  public Object takeNow() {
    return takesNow ? acquire() : CircuitBreakerInstance.super.takeNow();
  }

  @Override
  public OutcomeClassifier classifier() {
    return classifier;
  }

  @Override
  public void record(Object attemptState, boolean failure, boolean slow, Throwable cause) {
    onRecord.run();
    ((CountedTicket) attemptState).complete(failure ? "a failure" : "a success");
    (failure ? failures : successes).incrementAndGet();
  }

  @Override
  public void release(Object attemptState) {
    ((CountedTicket) attemptState).complete("a release");
    released.incrementAndGet();
  }

  /** @return tickets handed out and not yet completed */
  int outstanding() {
    return acquired.get() - successes.get() - failures.get() - released.get();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public CircuitState state() {
    return CircuitState.CLOSED;
  }

  @Override
  public void reset() {}

  @Override
  public Optional<Duration> retryAfter() {
    return Optional.empty();
  }
}
