package dev.brace.runtime.internal.policy;

import dev.brace.runtime.CircuitState;

/**
 * The sequential specification of {@link BreakerOperations}: the classic circuit breaker as
 * a plain state machine, written without looking at how {@link DefaultCircuitBreaker} does it.
 * A ticket remembers the stretch (generation) that admitted it; an outcome counts only while that
 * stretch is current.
 */
public abstract class BreakerModel {
  private CircuitState state;
  private long generation;
  private boolean probing;
  private int consecutiveFailures;
  private int now;
  private int probeAt;
  private final long[] ticketGeneration = new long[BreakerOperations.MAX_THREADS];
  private final boolean[] holding = new boolean[BreakerOperations.MAX_THREADS];

  /** @param start CLOSED, or OPEN with its cooldown already over */
  protected BreakerModel(CircuitState start) {
    this.state = start;
  }

  public String acquire(int thread) {
    if (holding[thread]) {
      return "holding";
    }
    switch (state) {
      case CLOSED:
        hold(thread);
        return "closed";
      case OPEN:
        if (now < probeAt) {
          return "refused-open";
        }
        moveTo(CircuitState.HALF_OPEN);
        probing = true;
        hold(thread);
        return "probe";
      default:
        if (probing) {
          return "refused-probing";
        }
        generation++;
        probing = true;
        hold(thread);
        return "probe";
    }
  }

  public boolean succeed(int thread) {
    if (!current(thread)) {
      return wasHolding(thread);
    }
    if (state == CircuitState.CLOSED) {
      consecutiveFailures = 0;
    } else {
      moveTo(CircuitState.CLOSED);
    }
    return wasHolding(thread);
  }

  public boolean fail(int thread) {
    if (!current(thread)) {
      return wasHolding(thread);
    }
    if (state == CircuitState.CLOSED && ++consecutiveFailures < BreakerOperations.FAILURE_THRESHOLD) {
      return wasHolding(thread);
    }
    moveTo(CircuitState.OPEN);
    probeAt = now + 1;
    return wasHolding(thread);
  }

  public boolean release(int thread) {
    if (current(thread) && state == CircuitState.HALF_OPEN) {
      generation++;
      probing = false;
    }
    return wasHolding(thread);
  }

  protected void failedCallOnce() {
    int spare = holding.length - 1;
    if (!holding[spare] && !acquire(spare).startsWith("refused")) {
      fail(spare);
    }
  }

  public CircuitState state() {
    return state;
  }

  protected void cooldownOnce() {
    now++;
  }

  private void hold(int thread) {
    holding[thread] = true;
    ticketGeneration[thread] = generation;
  }

  private boolean current(int thread) {
    return holding[thread] && ticketGeneration[thread] == generation;
  }

  /** Completes the thread's ticket, if any. */
  private boolean wasHolding(int thread) {
    boolean held = holding[thread];
    holding[thread] = false;
    return held;
  }

  private void moveTo(CircuitState next) {
    state = next;
    generation++;
    probing = false;
    consecutiveFailures = 0;
  }

  /** Starts OPEN with the cooldown over: the first acquire is the probe. */
  public static final class FromOpen extends BreakerModel {
    public FromOpen() {
      super(CircuitState.OPEN);
    }

    public void cooldown() {
      cooldownOnce();
    }
  }

  /** Starts CLOSED. */
  public static final class FromClosed extends BreakerModel {
    public FromClosed() {
      super(CircuitState.CLOSED);
    }

    public void failedCall() {
      failedCallOnce();
    }
  }
}
