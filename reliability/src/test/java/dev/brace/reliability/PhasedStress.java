package dev.brace.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A small stress runner in the manner of jcstress, for properties a model checker cannot reach
 * (time, waiting, many threads): {@code threads} platform threads run {@code phases} phases; all
 * start each phase together at a barrier, and between two phases, with every thread stopped at the
 * barrier, the arbiter runs alone: it checks the invariants of the phase just ended and moves the
 * clock. The first failure, from an actor or the arbiter, fails the run.
 */
public final class PhasedStress {
  private PhasedStress() {}

  /** What each thread does in one phase. */
  @FunctionalInterface
  public interface Actor {
    /**
     * @param thread the thread's index, from 0
     * @param phase the phase, from 0
     * @throws Exception a failure of the run
     */
    void act(int thread, int phase) throws Exception;
  }

  /** What runs alone between phases. */
  @FunctionalInterface
  public interface Arbiter {
    /**
     * @param endedPhase the phase that just ended; -1 before the first
     */
    void between(int endedPhase);
  }

  /**
   * Runs the phases and rethrows the first failure.
   *
   * @param threads how many threads
   * @param phases how many phases
   * @param actor each thread's work in a phase
   * @param arbiter the check and the clock move between phases, and after the last
   * @param timeoutSeconds how long the whole run may take before it is failed as stuck (and how
   *     long any one thread may wait at a barrier)
   */
  public static void run(int threads, int phases, Actor actor, Arbiter arbiter, long timeoutSeconds)
      throws Exception {
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    int[] ended = {-1};
    CyclicBarrier barrier =
        new CyclicBarrier(
            threads,
            () -> {
              try {
                arbiter.between(ended[0]);
              } catch (Throwable failure) {
                failures.add(failure);
                throw failure;
              } finally {
                ended[0]++;
              }
            });
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread worker =
          new Thread(
              () -> {
                try {
                  for (int phase = 0; phase < phases; phase++) {
                    barrier.await(timeoutSeconds, TimeUnit.SECONDS);
                    actor.act(thread, phase);
                  }
                  barrier.await(timeoutSeconds, TimeUnit.SECONDS);
                } catch (BrokenBarrierException | TimeoutException | InterruptedException stopped) {
                  if (failures.isEmpty()) {
                    failures.add(stopped);
                  }
                } catch (Throwable failure) {
                  failures.add(failure);
                  barrier.reset();
                }
              },
              "stress-" + thread);
      workers.add(worker);
      worker.start();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    for (Thread worker : workers) {
      worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      if (worker.isAlive()) {
        failures.add(new AssertionError(worker.getName() + " still running after " + timeoutSeconds + " s"));
        worker.interrupt();
      }
    }
    Throwable first = failures.peek();
    if (first instanceof Exception) {
      throw (Exception) first;
    }
    if (first instanceof Error) {
      throw (Error) first;
    }
  }
}
