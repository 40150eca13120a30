package dev.brace.benchmarks;

import dev.brace.Bulkhead;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * 10,000 threads, each making one call through a generated wrapper that waits where it must: a
 * bulkhead of 200 with a wait, a rate limiter that makes callers wait for tokens, a retry with
 * backoff (every tenth call fails its first attempt), and a timeout, half of the calls in each
 * mode. The dependency sleeps 1 ms, as a remote call would. Measured in calls per second, on
 * virtual threads and on platform threads (one thread per call either way). Needs JDK 21+ for
 * the virtual threads; {@code benchmarks/run} runs it on the JDK that {@code JDK21_HOME}
 * names, or skips it.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class VirtualThreadBenchmarks {
  static final int CALLS = 10_000;

  /** The wrapped client: both timeout modes over one shared bulkhead and limiter. */
  public interface WaitingClient {
    @Retry(maxAttempts = 3, delay = "1ms", on = IOException.class)
    @RateLimit(name = "bench-vt", permits = 200_000, per = "1s", burst = 200, maxWait = "30s")
    @Bulkhead(name = "bench-vt", maxConcurrent = 200, maxWait = "30s")
    @Timeout("5s")
    String interrupting(Request request) throws IOException;

    @Retry(maxAttempts = 3, delay = "1ms", on = IOException.class)
    @RateLimit(name = "bench-vt", permits = 200_000, per = "1s", burst = 200, maxWait = "30s")
    @Bulkhead(name = "bench-vt", maxConcurrent = 200, maxWait = "30s")
    @Timeout(value = "5s", mode = Timeout.Mode.ABANDON)
    String abandoning(Request request) throws IOException;
  }

  /** One call's number and how many attempts it has made. */
  public static final class Request {
    final int number;
    final AtomicInteger attempts = new AtomicInteger();

    Request(int number) {
      this.number = number;
    }
  }

  /** Sleeps 1 ms per attempt; the first attempt of every tenth call fails. */
  static final class SleepingDependency implements WaitingClient {
    @Override
    public String interrupting(Request request) throws IOException {
      return answer(request);
    }

    @Override
    public String abandoning(Request request) throws IOException {
      return answer(request);
    }

    private static String answer(Request request) throws IOException {
      boolean first = request.attempts.getAndIncrement() == 0;
      try {
        Thread.sleep(1);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", interrupted);
      }
      if (first && request.number % 10 == 0) {
        throw new IOException("the first attempt of every tenth call fails");
      }
      return "ok";
    }
  }

  @Param({"virtual", "platform"})
  public String threads;

  private WaitingClient client;
  private ThreadFactory factory;

  @Setup(Level.Trial)
  public void setUp() throws Throwable {
    client = ResilientVirtualThreadBenchmarks_WaitingClient.wrap(new SleepingDependency(), Registry.builder().build());
    factory = threads.equals("virtual") ? virtualThreads() : Thread::new;
  }

  /** @return {@code Thread.ofVirtual().factory()}, looked up so this module still compiles for Java 17 */
  static ThreadFactory virtualThreads() throws Throwable {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    Class<?> builder = Class.forName("java.lang.Thread$Builder$OfVirtual");
    Object ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(builder)).invoke();
    return (ThreadFactory) lookup.findVirtual(Class.forName("java.lang.Thread$Builder"), "factory",
        MethodType.methodType(ThreadFactory.class)).invoke(ofVirtual);
  }

  @Benchmark
  @OperationsPerInvocation(CALLS)
  public int tenThousandCalls() throws InterruptedException {
    CountDownLatch done = new CountDownLatch(CALLS);
    AtomicInteger answered = new AtomicInteger();
    for (int n = 0; n < CALLS; n++) {
      Request request = new Request(n);
      boolean abandon = n % 2 == 1;
      factory.newThread(() -> {
        try {
          String answer = abandon ? client.abandoning(request) : client.interrupting(request);
          if (answer.equals("ok")) {
            answered.incrementAndGet();
          }
        } catch (IOException | RuntimeException failed) {
          // Counted by its absence: every call should be answered.
        } finally {
          done.countDown();
        }
      }).start();
    }
    done.await();
    if (answered.get() != CALLS) {
      throw new IllegalStateException(answered.get() + " of " + CALLS + " calls answered");
    }
    return answered.get();
  }
}
