package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.LockSupport;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The bulkhead against a counter, driven by random operations: the test thread takes and returns
 * permits, and waiters are threads parked in {@code acquire()} that a release wakes, an interrupt
 * ends or the clock's {@code maxWait} expires. After every operation the test waits until the
 * bulkhead is quiet (every waiter parked for a permit or finished, and no permit free while one
 * is parked),
 * then holders never exceed the capacity and no permit is lost; at the end all come back.
 */
class BulkheadProperties {

  private static final Duration MAX_WAIT = Duration.ofSeconds(1);
  private static final long QUIET_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(30);

  enum Kind { TRY_ACQUIRE, RELEASE, WAITER, INTERRUPT_WAITER, ADVANCE, WAITER_RELEASES }

  record Op(Kind kind, int index) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    return Arbitraries.of(Kind.values())
        .flatMap(kind -> Arbitraries.integers().between(0, 7).map(index -> new Op(kind, index)))
        .list().ofMaxSize(30);
  }

  @Property(tries = 60)
  void holdersNeverExceedTheCapacityAndNoPermitIsLost(
      @ForAll @IntRange(min = 1, max = 3) int maxConcurrent, @ForAll("ops") List<Op> ops)
      throws InterruptedException {
    ManualTimeSource clock = new ManualTimeSource();
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(
        BulkheadConfig.builder("bh").maxConcurrent(maxConcurrent).maxWait(MAX_WAIT).build(),
        clock::scheduler, new RecordedEvents().bus());
    int heldHere = 0;
    List<Waiter> waiters = new ArrayList<>();
    try {
      for (Op op : ops) {
        switch (op.kind()) {
          case TRY_ACQUIRE:
            if (bulkhead.tryAcquire()) {
              heldHere++;
            }
            break;
          case RELEASE:
            if (heldHere > 0) {
              bulkhead.release();
              heldHere--;
            }
            break;
          case WAITER:
            Waiter waiter = new Waiter(bulkhead);
            waiters.add(waiter);
            waiter.start();
            break;
          case INTERRUPT_WAITER:
            if (!waiters.isEmpty()) {
              waiters.get(op.index() % waiters.size()).interrupt();
            }
            break;
          case ADVANCE:
            // Half of maxWait per step: a waiter parked two steps gives up.
            clock.advance(MAX_WAIT.dividedBy(2));
            break;
          case WAITER_RELEASES:
            for (Waiter w : waiters) {
              if (w.holds()) {
                w.releaseOnce();
                break;
              }
            }
            break;
          default:
            throw new IllegalStateException(op.toString());
        }
        awaitQuiet(bulkhead, waiters);
        int held = heldHere;
        for (Waiter w : waiters) {
          held += w.holds() ? 1 : 0;
        }
        assertTrue(held <= maxConcurrent, "holders " + held + " > " + maxConcurrent);
        assertEquals(held, bulkhead.inFlight(), "permits taken = holders (none lost, none made up)");
      }
    } finally {
      for (Waiter w : waiters) {
        w.interrupt();
      }
      awaitQuiet(bulkhead, waiters);
      for (Waiter w : waiters) {
        w.join(TimeUnit.NANOSECONDS.toMillis(QUIET_WITHIN_NANOS));
      }
    }
    for (Waiter w : waiters) {
      if (w.holds()) {
        w.releaseOnce();
      }
      w.checkRefusal();
    }
    for (int i = 0; i < heldHere; i++) {
      bulkhead.release();
    }
    assertEquals(maxConcurrent, bulkhead.available(), "every permit back");
    assertThrows(IllegalStateException.class, bulkhead::release, "a release without its acquire");
  }

  /**
   * Every waiter done or parked for a permit, and no permit left free while one is parked. The
   * waiters are looked at before and after the bulkhead's count and must look the same both times:
   * a waiter woken in between, its permit already taken, may still show as parked in the first
   * look, and would be counted as waiting while the bulkhead counts its permit.
   */
  private static void awaitQuiet(SemaphoreBulkhead bulkhead, List<Waiter> waiters) {
    long start = System.nanoTime();
    while (true) {
      List<WaiterState> before = states(waiters);
      int available = bulkhead.available();
      List<WaiterState> after = states(waiters);
      if (before.equals(after) && !after.contains(WaiterState.BUSY)
          && !(after.contains(WaiterState.PARKED) && available > 0)) {
        return;
      }
      if (System.nanoTime() - start > QUIET_WITHIN_NANOS) {
        fail("not quiet after 30 s: available " + available + ", waiters " + after);
      }
      Thread.onSpinWait();
    }
  }

  enum WaiterState { DONE, PARKED, BUSY }

  private static List<WaiterState> states(List<Waiter> waiters) {
    List<WaiterState> states = new ArrayList<>(waiters.size());
    for (Waiter w : waiters) {
      states.add(w.state());
    }
    return states;
  }

  /** A caller parked in {@code acquire()} that keeps its permit until told to release it. */
  private static final class Waiter extends Thread {
    private final SemaphoreBulkhead bulkhead;
    volatile boolean done;
    volatile boolean acquired;
    volatile boolean released;
    volatile BulkheadFullException refusal;
    volatile boolean interruptedOnRefusal;
    volatile boolean wasInterrupted;

    Waiter(SemaphoreBulkhead bulkhead) {
      super("bulkhead-property-waiter");
      this.bulkhead = bulkhead;
      setDaemon(true);
    }

    @Override
    public void interrupt() {
      wasInterrupted = true;
      super.interrupt();
    }

    @Override
    public void run() {
      try {
        bulkhead.acquire();
        acquired = true;
      } catch (BulkheadFullException refused) {
        refusal = refused;
        interruptedOnRefusal = Thread.currentThread().isInterrupted();
      } finally {
        done = true;
      }
    }

    boolean holds() {
      return done && acquired && !released;
    }

    /**
     * @return done; parked for a permit (waiting on the bulkhead's condition, not on its lock,
     *     which a woken waiter takes again before it looks for a permit); or anything else
     */
    WaiterState state() {
      if (done || getState() == Thread.State.TERMINATED) {
        return WaiterState.DONE;
      }
      boolean parked = getState() == Thread.State.WAITING
          && LockSupport.getBlocker(this) instanceof AbstractQueuedSynchronizer.ConditionObject;
      return parked ? WaiterState.PARKED : WaiterState.BUSY;
    }

    void releaseOnce() {
      released = true;
      bulkhead.release();
    }

    /** Refused by an interrupt: the cause and the flag say so; otherwise by maxWait: no cause. */
    void checkRefusal() {
      if (refusal == null) {
        return;
      }
      if (refusal.getCause() != null) {
        assertInstanceOf(InterruptedException.class, refusal.getCause());
        assertTrue(interruptedOnRefusal, "the interrupt flag is set again");
      } else {
        assertNull(refusal.getCause());
      }
    }
  }
}
