package dev.brace.redis;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Threads that call one stack over and over, with a short pause between calls, while a test does
 * something to Redis; every call is recorded with its outcome and its real duration.
 */
final class Callers {
  /** How a call ended, from the caller's side. */
  enum Outcome {
    /** The delegate ran and answered. */
    OK,
    /** The delegate ran and failed (its own {@link IOException}). */
    DELEGATE_FAILED,
    /** Refused by the limiter: no token (the quota, shared or local). */
    NO_TOKEN,
    /** Refused by the breaker: the circuit is open. */
    CIRCUIT_OPEN,
    /** Refused because the backend is unavailable and the instance is configured to refuse. */
    BACKEND_REFUSED,
    /** Anything else: always a defect. */
    UNEXPECTED
  }

  /**
   * One call.
   *
   * @param started wall clock, comparable with event timestamps and with other processes
   * @param ended wall clock
   * @param nanos its duration, on the monotonic clock
   * @param thrown what it threw, or null
   */
  record Call(Instant started, Instant ended, long nanos, Outcome outcome, Throwable thrown) {
    boolean endedBefore(Instant instant) {
      return ended.isBefore(instant);
    }

    boolean startedAfter(Instant instant) {
      return started.isAfter(instant);
    }

    boolean within(Instant from, Instant to) {
      return started.isAfter(from) && ended.isBefore(to);
    }

    /** @return whether Redis failed under this call (not merely skipped during an outage) */
    boolean backendFailed() {
      return outcome == Outcome.BACKEND_REFUSED && thrown.getCause() != null;
    }
  }

  /** One list per thread, read only after the thread has ended. */
  private final List<List<Call>> calls = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicInteger invocations = new AtomicInteger();
  private volatile boolean stopping;

  /**
   * Starts calling at once.
   *
   * @param name for the threads
   * @param stack what is called
   * @param threads how many threads call it
   * @param delegate the protected call
   */
  Callers(String name, Stack<String> stack, int threads, Callable<String> delegate) {
    for (int t = 0; t < threads; t++) {
      List<Call> own = new ArrayList<>();
      calls.add(own);
      Thread thread = new Thread(() -> {
        while (!stopping) {
          own.add(callOnce(stack, () -> {
            invocations.incrementAndGet();
            return delegate.call();
          }));
          try {
            Thread.sleep(1);
          } catch (InterruptedException interrupted) {
            return;
          }
        }
      }, name + "-" + t);
      thread.setDaemon(true);
      this.threads.add(thread);
      thread.start();
    }
  }

  /** Makes one call and records how it ended. */
  static Call callOnce(Stack<String> stack, Callable<String> delegate) {
    Instant started = Instant.now();
    long start = System.nanoTime();
    Outcome outcome;
    Throwable thrown = null;
    try {
      stack.call(delegate);
      outcome = Outcome.OK;
    } catch (Throwable failure) {
      thrown = failure;
      outcome = classify(failure);
    }
    return new Call(started, Instant.now(), System.nanoTime() - start, outcome, thrown);
  }

  private static Outcome classify(Throwable failure) {
    boolean backend = String.valueOf(failure.getMessage()).contains("' is unavailable");
    if (failure instanceof IOException) {
      return Outcome.DELEGATE_FAILED;
    } else if (failure instanceof RateLimitedException) {
      return backend ? Outcome.BACKEND_REFUSED : Outcome.NO_TOKEN;
    } else if (failure instanceof CircuitOpenException) {
      return backend ? Outcome.BACKEND_REFUSED : Outcome.CIRCUIT_OPEN;
    }
    return Outcome.UNEXPECTED;
  }

  /** Stops every thread after its current call and waits for it. */
  List<Call> stop() throws InterruptedException {
    stopping = true;
    for (Thread thread : threads) {
      thread.join(TimeUnit.SECONDS.toMillis(30));
      if (thread.isAlive()) {
        throw new AssertionError(thread.getName() + " still in a call 30 s after being stopped");
      }
    }
    List<Call> all = new ArrayList<>();
    calls.forEach(all::addAll);
    return all;
  }

  /** @return how many times the delegate ran */
  int invocations() {
    return invocations.get();
  }

  /** Waits (up to 30 s) until {@code thread} is blocked in a method of {@code type} named {@code method}. */
  static void awaitBlockedIn(Thread thread, Class<?> type, String method) throws InterruptedException {
    if (!blockedWithin(thread, type, method, TimeUnit.SECONDS.toMillis(30))) {
      throw new AssertionError(thread.getName() + " never blocked in " + type.getSimpleName() + "." + method);
    }
  }

  /** @return whether {@code thread} blocked in a method of {@code type} named {@code method} within {@code millis} */
  static boolean blockedWithin(Thread thread, Class<?> type, String method, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < deadline) {
      Thread.State state = thread.getState();
      if (state == Thread.State.TIMED_WAITING || state == Thread.State.WAITING) {
        for (StackTraceElement frame : thread.getStackTrace()) {
          if (frame.getClassName().equals(type.getName()) && frame.getMethodName().equals(method)) {
            return true;
          }
        }
      }
      Thread.sleep(1);
    }
    return false;
  }

  /**
   * Starts {@code threads} threads together, each making {@code calls} calls.
   *
   * @return how many calls were admitted and how many refused for want of a token
   */
  static long[] concurrently(Stack<String> stack, int threads, int calls) throws Exception {
    AtomicLong admitted = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          go.await();
          for (int i = 0; i < calls; i++) {
            try {
              stack.call(() -> "ok");
              admitted.incrementAndGet();
            } catch (RateLimitedException noToken) {
              refused.incrementAndGet();
            }
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> each : done) {
        each.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return new long[] {admitted.get(), refused.get()};
  }

  static long count(List<Call> calls, Predicate<Call> which) {
    return calls.stream().filter(which).count();
  }

  static long count(List<Call> calls, Outcome outcome) {
    return count(calls, call -> call.outcome() == outcome);
  }

  /** @return the longest call, in milliseconds */
  static long slowestMillis(List<Call> calls) {
    return calls.stream().mapToLong(Call::nanos).max().orElse(0) / 1_000_000;
  }
}
