package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import dev.brace.reliability.SteppedClock;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.config.CircuitBreakerConfig;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;

/**
 * The operations Lincheck runs against one real {@link DefaultCircuitBreaker} (classic mode, two
 * consecutive failures trip it, one probe success closes it). Each test thread keeps its own
 * ticket, so a call is split into its steps: {@link #acquire} takes a ticket, and {@link #succeed},
 * {@link #fail} or {@link #release} completes it later, while other threads interleave. Results are
 * checked against {@link BreakerModel}, a plain sequential state machine written from the breaker's rules.
 *
 * <p>Placed in the runtime's {@code internal} package only to tell a probe's ticket from a CLOSED
 * one ({@link CircuitGeneration#kind()}); nothing else here reaches inside the breaker.
 *
 * <p>After each run {@link #eventsBalance} checks the events against the final state: every move
 * between CLOSED, OPEN and HALF_OPEN is reported once, so the events into and out of each state
 * must add up to whether the breaker ends there. A lost or doubled event breaks the balance.
 */
@Param(name = "thread", gen = ThreadIdGen.class)
public abstract class BreakerOperations {
  static final Duration RESET_TIMEOUT = Duration.ofSeconds(10);
  static final int FAILURE_THRESHOLD = 2;
  static final int MAX_THREADS = 8;

  private final SteppedClock clock = new SteppedClock(1_000_000_000L);
  private final EventBus bus = new EventBus(Clock.systemUTC());
  private final DefaultCircuitBreaker breaker;
  private final Object[] tickets = new Object[MAX_THREADS];
  private final CircuitState start;

  /** Made once: a stack trace filled under the model checker's instrumentation costs much. */
  private static final IOException DOWN = new IOException("down");

  private final AtomicInteger halfOpened = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();
  /** Reopened by a failed probe (reported with {@code failures=1}). */
  private final AtomicInteger reopened = new AtomicInteger();
  /** Tripped from CLOSED (reported with {@code failures} at the threshold). */
  private final AtomicInteger tripped = new AtomicInteger();

  /** @param start CLOSED, or OPEN with its cooldown already over */
  protected BreakerOperations(CircuitState start) {
    this.start = start;
    this.breaker =
        new DefaultCircuitBreaker(
            CircuitBreakerConfig.builder("lincheck")
                .failureThreshold(FAILURE_THRESHOLD)
                .successThreshold(1)
                .resetTimeout(RESET_TIMEOUT)
                .build(),
            clock,
            bus);
    if (start == CircuitState.OPEN) {
      for (int i = 0; i < FAILURE_THRESHOLD; i++) {
        breaker.onFailure(breaker.acquire(), DOWN);
      }
      clock.advance(RESET_TIMEOUT);
    }
    bus.subscribe(this::count);
  }

  private void count(Event event) {
    switch (event.kind()) {
      case "circuit.half_open":
        halfOpened.incrementAndGet();
        break;
      case "circuit.closed":
        closed.incrementAndGet();
        break;
      case "circuit.opened":
        if (Integer.valueOf(1).equals(event.attributes().get("failures"))) {
          reopened.incrementAndGet();
        } else {
          tripped.incrementAndGet();
        }
        break;
      default:
        break;
    }
  }

  /**
   * @return {@code closed} or {@code probe} when admitted (the ticket is kept for this thread),
   *     {@code refused-open} or {@code refused-probing} when refused, {@code holding} when this
   *     thread still holds a ticket
   */
  @Operation
  public String acquire(@Param(name = "thread") int thread) {
    if (tickets[thread] != null) {
      return "holding";
    }
    Object ticket;
    try {
      ticket = breaker.acquire();
    } catch (CircuitOpenException refused) {
      return refused.retryAfter().isPresent() ? "refused-open" : "refused-probing";
    }
    tickets[thread] = ticket;
    return ((CircuitGeneration) ticket).kind() == CircuitState.CLOSED ? "closed" : "probe";
  }

  /** @return whether this thread had a ticket to complete */
  @Operation
  public boolean succeed(@Param(name = "thread") int thread) {
    Object ticket = take(thread);
    if (ticket != null) {
      breaker.onSuccess(ticket);
    }
    return ticket != null;
  }

  /** @return whether this thread had a ticket to complete */
  @Operation
  public boolean fail(@Param(name = "thread") int thread) {
    Object ticket = take(thread);
    if (ticket != null) {
      breaker.onFailure(ticket, DOWN);
    }
    return ticket != null;
  }

  /** @return whether this thread had a ticket to complete */
  @Operation
  public boolean release(@Param(name = "thread") int thread) {
    Object ticket = take(thread);
    if (ticket != null) {
      breaker.release(ticket);
    }
    return ticket != null;
  }

  /**
   * A whole call that fails: acquire, then the failure, with nothing in between on this thread.
   * Its result says nothing (a refusal is swallowed), so concurrent failures can race to trip the
   * circuit; the events and {@link #state()} tell what happened. Offered only where no time
   * passes, so it never takes a probe (a probe in flight inside one operation would be visible to
   * others as {@code refused-probing}, which no sequential order explains).
   */
  protected void failedCallOnce() {
    Object ticket;
    try {
      ticket = breaker.acquire();
    } catch (CircuitOpenException refused) {
      return;
    }
    breaker.onFailure(ticket, DOWN);
  }

  /** @return the state as stored */
  @Operation
  public CircuitState state() {
    return breaker.state();
  }

  /** The reset timeout passes. */
  protected void cooldownOnce() {
    clock.advance(RESET_TIMEOUT);
  }

  private Object take(int thread) {
    Object ticket = tickets[thread];
    tickets[thread] = null;
    return ticket;
  }

  /** Into minus out of each state, plus where it started, is 1 where it ends and 0 elsewhere. */
  @Validate
  public void eventsBalance() {
    CircuitState end = breaker.state();
    int open = is(start, CircuitState.OPEN) + tripped.get() + reopened.get() - halfOpened.get();
    int halfOpen = is(start, CircuitState.HALF_OPEN) + halfOpened.get() - reopened.get() - closed.get();
    int closedBalance = is(start, CircuitState.CLOSED) + closed.get() - tripped.get();
    if (open != is(end, CircuitState.OPEN)
        || halfOpen != is(end, CircuitState.HALF_OPEN)
        || closedBalance != is(end, CircuitState.CLOSED)) {
      throw new IllegalStateException(
          "events do not add up to the final state " + end + ": started " + start + ", tripped "
              + tripped + ", half_open " + halfOpened + ", reopened " + reopened + ", closed " + closed);
    }
  }

  private static int is(CircuitState actual, CircuitState expected) {
    return actual == expected ? 1 : 0;
  }
}
