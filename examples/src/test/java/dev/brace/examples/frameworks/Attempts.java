package dev.brace.examples.frameworks;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Sits between a generated wrapper and the framework's client, as a test's eyes: which thread each
 * attempt ran on, when it ended and how. That is how a test sees whether a timed-out read was
 * unblocked or left running.
 */
public final class Attempts {

  /** A delegate call: the framework's blocking request. */
  @FunctionalInterface
  public interface Request<T> {
    T send() throws Exception;
  }

  /** One attempt as the framework's client saw it. */
  public record Attempt(Thread thread, long startedNanos, long endedNanos, Throwable failure, boolean interrupted) {
    /** @return how long the framework's call blocked */
    public long blockedMillis() {
      return TimeUnit.NANOSECONDS.toMillis(endedNanos - startedNanos);
    }
  }

  private final List<Attempt> ended = new CopyOnWriteArrayList<>();
  /** One permit per ended attempt. */
  private final Semaphore endings = new Semaphore(0);
  private final AtomicInteger started = new AtomicInteger();
  private volatile IntConsumer beforeEach = attempt -> {};

  /**
   * @param hook runs before attempt n (1-based), on its thread
   * @return this
   */
  public Attempts beforeEach(IntConsumer hook) {
    this.beforeEach = hook;
    return this;
  }

  /**
   * Runs one attempt through the framework and records it. What the framework throws is thrown on
   * unchanged, a checked exception too (the interface the lambda implements declares it).
   *
   * @param request the framework's call
   * @return what it returned
   */
  public <T> T around(Request<T> request) {
    beforeEach.accept(started.incrementAndGet());
    long startedNanos = System.nanoTime();
    Throwable failure = null;
    try {
      return request.send();
    } catch (Exception | Error thrown) {
      failure = thrown;
      throw Attempts.<RuntimeException>sneaky(thrown);
    } finally {
      ended.add(new Attempt(Thread.currentThread(), startedNanos, System.nanoTime(), failure,
          Thread.currentThread().isInterrupted()));
      endings.release();
    }
  }

  /** @return the attempts started so far */
  public int started() {
    return started.get();
  }

  /** @return the attempts that ended, in the order they ended */
  public List<Attempt> ended() {
    return List.copyOf(ended);
  }

  /**
   * @param count how many attempts must have ended
   * @param timeoutMillis how long to wait for them
   * @return the ended attempts, fewer than {@code count} when the time ran out
   * @throws InterruptedException when interrupted while waiting
   */
  public List<Attempt> awaitEnded(int count, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (ended.size() < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0 || !endings.tryAcquire(left, TimeUnit.NANOSECONDS)) {
        break;
      }
    }
    return ended();
  }

  @SuppressWarnings("unchecked")
  private static <X extends Throwable> X sneaky(Throwable failure) throws X {
    throw (X) failure;
  }
}
