package dev.brace.runtime;

import dev.brace.runtime.internal.context.CurrentDeadline;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * An instant by which the work of a request must be done, carried with the request: every Brace
 * call made under a deadline is bounded by what remains of it — its attempt timeout shrinks to
 * the time left, no backoff, limiter wait or bulkhead wait starts that could not end in time, and a
 * call whose deadline has passed fails at once with {@link DeadlineExceededException} without
 * reaching its dependency. Every Brace call also makes its own bound (its {@code @Timeout} for
 * each attempt, its retry's {@code maxDuration} for the whole call) the current deadline while its
 * attempts run, so the calls nested in it inherit it, on the caller's thread and on every thread
 * a part of the call runs on.
 *
 * <pre>{@code
 * try (Deadline.Scope request = Deadline.open(Duration.ofMillis(300))) {
 *   Quote quote = quotes.quote(id);          // each Brace call gets at most what is left
 *   Stock stock = inventory.stock(id);
 * }
 * String answer = Deadline.within(Duration.ofMillis(300), () -> recs.recommendations(user));
 * }</pre>
 *
 * <p>A deadline is an instant of a monotonic clock, a {@link TimeSource}: the system's {@code
 * System.nanoTime()} unless one is given. That works across registries and threads, and a test
 * that opens its deadline on a {@link ManualTimeSource} (the one its registry runs on) sees it
 * judged on that clock. A call on another clock than its deadline's converts what remains of it.
 *
 * <p>Deadlines only shrink: opening one inside another keeps the earlier of the two. The work
 * itself is not interrupted when the deadline passes; the Brace calls in it are. Immutable.
 */
public final class Deadline {
  private final TimeSource clock;
  private final long at;
  private final Duration budget;

  private Deadline(TimeSource clock, long at, Duration budget) {
    this.clock = clock;
    this.at = at;
    this.budget = budget;
  }

  /**
   * A deadline {@code budget} from now on the system's clock; it becomes current only when {@linkplain
   * #open() opened}.
   *
   * @param budget how long from now; greater than zero
   * @return the deadline
   * @throws IllegalArgumentException when {@code budget} is zero or negative
   * @throws NullPointerException when {@code budget} is null
   */
  public static Deadline after(Duration budget) {
    return after(budget, TimeSource.system());
  }

  /**
   * A deadline {@code budget} from now on {@code clock}.
   *
   * @param budget how long from now; greater than zero
   * @param clock the clock it is an instant of (a test's {@link ManualTimeSource})
   * @return the deadline
   * @throws IllegalArgumentException when {@code budget} is zero or negative
   * @throws NullPointerException when an argument is null
   */
  public static Deadline after(Duration budget, TimeSource clock) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(clock, "clock");
    if (budget.isNegative() || budget.isZero()) {
      throw new IllegalArgumentException(
          "budget = " + budget + " is not accepted; a deadline needs a duration greater than zero");
    }
    // Instants are compared by their difference, so even a budget of Long.MAX_VALUE never overflows.
    return new Deadline(clock, clock.nanoTime() + saturatedNanos(budget), budget);
  }

  /**
   * A deadline at an instant of {@code clock}: one received from elsewhere, or that has already
   * passed. Brace itself uses it for the bounds its calls set.
   *
   * @param nanoTime the instant, as {@code clock.nanoTime()} reads it
   * @param budget how long the deadline was when it was set, for reports; zero or more
   * @param clock the clock
   * @return the deadline
   * @throws IllegalArgumentException when {@code budget} is negative
   * @throws NullPointerException when {@code budget} or {@code clock} is null
   */
  public static Deadline at(long nanoTime, Duration budget, TimeSource clock) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(clock, "clock");
    if (budget.isNegative()) {
      throw new IllegalArgumentException("budget = " + budget + " is not accepted; expected zero or more");
    }
    return new Deadline(clock, nanoTime, budget);
  }

  /**
   * Opens a deadline {@code budget} from now on the system's clock for the code that runs until the
   * scope is closed, on this thread (and, through Brace calls, on the threads they use).
   *
   * @param budget how long from now; greater than zero
   * @return the scope; close it on this thread, once
   * @throws IllegalArgumentException when {@code budget} is zero or negative
   * @throws NullPointerException when {@code budget} is null
   */
  public static Scope open(Duration budget) {
    return after(budget).open();
  }

  /**
   * As {@link #open(Duration)}, on {@code clock}.
   *
   * @param budget how long from now; greater than zero
   * @param clock the clock (a test's {@link ManualTimeSource}, the one its registry runs on)
   * @return the scope; close it on this thread, once
   * @throws IllegalArgumentException when {@code budget} is zero or negative
   * @throws NullPointerException when an argument is null
   */
  public static Scope open(Duration budget, TimeSource clock) {
    return after(budget, clock).open();
  }

  /**
   * Makes this deadline current until the scope is closed; under an earlier one, that one stays
   * current.
   *
   * @return the scope; close it on this thread, once
   */
  public Scope open() {
    CurrentDeadline current = CurrentDeadline.ofThisThread();
    Deadline enclosing = of(current);
    Deadline effective = enclosing != null && enclosing.endsBefore(this) ? enclosing : this;
    current.push(effective.clock, effective.at, saturatedNanos(effective.budget), effective);
    return new Scope(current, effective, current.depth(), Thread.currentThread());
  }

  /**
   * Runs {@code work} under a deadline {@code budget} from now.
   *
   * @param budget how long from now; greater than zero
   * @param work the work; the Brace calls in it are bounded by the deadline
   * @param <T> its result
   * @return what {@code work} returned
   * @throws Exception what {@code work} threw, as it came
   * @throws IllegalArgumentException when {@code budget} is zero or negative
   * @throws NullPointerException when an argument is null
   */
  public static <T> T within(Duration budget, Callable<T> work) throws Exception {
    Objects.requireNonNull(work, "work");
    try (Scope scope = open(budget)) {
      return work.call();
    }
  }

  /**
   * Starts asynchronous work under a deadline {@code budget} from now: the Brace calls it starts
   * before {@code work} returns carry the deadline on every thread they continue on.
   *
   * @param budget how long from now; greater than zero
   * @param work starts the work and returns its stage
   * @param <T> the stage's value
   * @return the stage as a future; failed with what {@code work} threw, if it threw
   * @throws IllegalArgumentException when {@code budget} is zero or negative
   * @throws NullPointerException when an argument is null
   */
  public static <T> CompletableFuture<T> withinAsync(Duration budget, Supplier<? extends CompletionStage<T>> work) {
    Objects.requireNonNull(work, "work");
    Deadline deadline = after(budget);
    try (Scope scope = deadline.open()) {
      CompletionStage<T> stage = work.get();
      if (stage == null) {
        return CompletableFuture.failedFuture(new NullPointerException("work returned null instead of a stage"));
      }
      return stage.toCompletableFuture();
    } catch (RuntimeException thrown) {
      return CompletableFuture.failedFuture(thrown);
    }
  }

  /** @return the deadline the code on this thread is under, if any */
  public static Optional<Deadline> current() {
    return Optional.ofNullable(of(CurrentDeadline.ofThisThread()));
  }

  /** @return the thread's current deadline as an object, made now and kept there if it had none; null when there is none */
  private static Deadline of(CurrentDeadline current) {
    if (!current.present()) {
      return null;
    }
    Object made = current.made();
    if (made == null) {
      made = at(current.end(), Duration.ofNanos(current.budgetNanos()), current.clock());
      current.made(made);
    }
    return (Deadline) made;
  }

  /** @return the time left, zero once the deadline has passed */
  public Duration remaining() {
    long left = at - clock.nanoTime();
    return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
  }

  /** @return whether the deadline has passed */
  public boolean passed() {
    return at - clock.nanoTime() <= 0;
  }

  /** @return how long the deadline was when it was set */
  public Duration budget() {
    return budget;
  }

  /** @return the clock it is an instant of */
  public TimeSource clock() {
    return clock;
  }

  /** @return the instant, as its {@link #clock()}'s {@code nanoTime()} reads it */
  public long nanoTime() {
    return at;
  }

  /** @return whether this one falls due before {@code other} (compared on one clock when both share it) */
  boolean endsBefore(Deadline other) {
    if (clock == other.clock) {
      return at - other.at < 0;
    }
    return at - clock.nanoTime() < other.at - other.clock.nanoTime();
  }

  @Override
  public String toString() {
    long left = at - clock.nanoTime();
    return "Deadline[" + (left > 0 ? Durations.describe(Duration.ofNanos(left)) + " left" : "passed")
        + " of " + Durations.describe(budget) + "]";
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  /** An opened deadline; closing it puts back the deadline that was current before. */
  public static final class Scope implements AutoCloseable {
    private final CurrentDeadline current;
    private final Deadline deadline;
    private final int depth;
    private final Thread owner;
    private boolean closed;

    private Scope(CurrentDeadline current, Deadline deadline, int depth, Thread owner) {
      this.current = current;
      this.deadline = deadline;
      this.depth = depth;
      this.owner = owner;
    }

    /** @return the deadline current in this scope: the one opened, or an earlier one it is nested in */
    public Deadline deadline() {
      return deadline;
    }

    /**
     * Ends the scope. Closing it again does nothing.
     *
     * @throws IllegalStateException when closed on another thread than it was opened on, or
     *     while a scope opened inside it is still open
     */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      if (Thread.currentThread() != owner) {
        throw new IllegalStateException("a deadline's scope is closed on the thread that opened it, not on "
            + Thread.currentThread().getName());
      }
      if (current.depth() != depth) {
        throw new IllegalStateException("a deadline's scope is closed after the scopes opened inside it; close them first");
      }
      closed = true;
      current.pop();
    }
  }
}
