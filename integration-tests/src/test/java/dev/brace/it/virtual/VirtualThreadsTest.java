package dev.brace.it.virtual;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * 10,000 virtual threads through one generated wrapper that makes them wait in every way it can
 * (a full bulkhead, a limiter's tokens to come, a retry's backoff, a timeout in each mode, two in a
 * thousand calls hanging until their timeout ends them) while JFR records {@code
 * jdk.VirtualThreadPinned}: not one carrier thread may be pinned, and exactly the calls that hang
 * time out. The same load on platform
 * threads gives the comparison printed at the end.
 *
 * <p>Needs JDK 21+. The build compiles for Java 17, so virtual threads are reached through method
 * handles; {@code mvn -B verify} runs this class in a JVM of its own on the JDK that {@code
 * JDK21_HOME} or {@code -Djdk21.home} names (integration-tests/pom.xml), and on a plain JDK 17
 * it is skipped with a message saying so.
 */
class VirtualThreadsTest {
  static final int CALLS = 10_000;
  /** Two calls in every thousand hang until their timeout ends them, one in each mode. */
  static final int HANGING = CALLS / 500;

  /**
   * Both timeout modes over one bulkhead and one limiter, each made to wait. The calls that hang go
   * through methods of their own with a short timeout; the ordinary calls' timeout is as long as
   * the whole run may take, so which calls time out does not depend on how slow a loaded machine
   * makes the others. The retry, limiter and bulkhead are the interface's, so every call shares them.
   */
  @Retry(maxAttempts = 3, delay = "2ms", on = IOException.class)
  @RateLimit(name = "vt-limiter", permits = 20_000, per = "1s", burst = 100, maxWait = "60s")
  @Bulkhead(name = "vt-bulkhead", maxConcurrent = 100, maxWait = "60s")
  interface Waiting {
    @Timeout("2m")
    String interrupting(int number) throws IOException;

    @Timeout(value = "2m", mode = Timeout.Mode.ABANDON)
    String abandoning(int number) throws IOException;

    @Timeout("1s")
    String interruptingHanging(int number) throws IOException;

    @Timeout(value = "1s", mode = Timeout.Mode.ABANDON)
    String abandoningHanging(int number) throws IOException;
  }

  /** A 1 ms remote call; the first attempt of every tenth call fails; two in a thousand hang. */
  static final class Dependency implements Waiting {
    final ConcurrentHashMap<Integer, AtomicInteger> attempts = new ConcurrentHashMap<>();

    @Override
    public String interrupting(int number) throws IOException {
      return answer(number);
    }

    @Override
    public String abandoning(int number) throws IOException {
      return answer(number);
    }

    @Override
    public String interruptingHanging(int number) throws IOException {
      return answer(number);
    }

    @Override
    public String abandoningHanging(int number) throws IOException {
      return answer(number);
    }

    private String answer(int number) throws IOException {
      int attempt = attempts.computeIfAbsent(number, n -> new AtomicInteger()).incrementAndGet();
      try {
        Thread.sleep(hangs(number) ? 60_000 : 1);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return "interrupted";
      }
      if (attempt == 1 && number % 10 == 5) {
        throw new IOException("the first attempt of call " + number + " fails");
      }
      return "ok";
    }
  }

  static boolean hangs(int number) {
    return number % 1000 == 0 || number % 1000 == 1;
  }

  /**
   * Calls {@code number}: even numbers through an interrupting timeout, odd ones through an
   * abandoning one, the hanging ones through the methods meant for them.
   */
  static String call(Waiting client, int number) throws IOException {
    if (hangs(number)) {
      return number % 2 == 0 ? client.interruptingHanging(number) : client.abandoningHanging(number);
    }
    return number % 2 == 0 ? client.interrupting(number) : client.abandoning(number);
  }

  /** @return the numbers of the calls that hang, in order */
  static Set<Integer> hangingCalls() {
    return IntStream.range(0, CALLS).filter(VirtualThreadsTest::hangs).boxed().collect(Collectors.toCollection(TreeSet::new));
  }

  /** How one run went. */
  static final class Outcome {
    final AtomicInteger answered = new AtomicInteger();
    /**
     * Which calls timed out, by number. A plain array made before the calls start, each call writing
     * only its own slot before it counts down the latch the run awaits, which makes every write
     * visible to the reader. Not a concurrent set, whose class would initialize while the recording
     * runs, and not an {@code AtomicIntegerArray}, whose first {@code set} links a var handle
     * through a synchronized map: both pin a carrier, the test's and not Brace's.
     */
    final boolean[] timedOut = new boolean[CALLS];

    /** @return the numbers of the calls that timed out, in order; read only after the run's latch */
    Set<Integer> timedOut() {
      return IntStream.range(0, CALLS).filter(number -> timedOut[number]).boxed()
          .collect(Collectors.toCollection(TreeSet::new));
    }
    final List<Throwable> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
    long nanos;
  }

  @Test
  void tenThousandVirtualThreadsPinNoCarrier() throws Throwable {
    Assumptions.assumeTrue(Runtime.version().feature() >= 21,
        "SKIPPED virtual-thread test: JDK " + Runtime.version().feature() + " has no virtual threads. "
            + "`mvn -B verify` runs it on a JDK 21+ when JDK21_HOME (or -Djdk21.home) names one.");
    warmUp(virtualThreads());
    Path recorded = Files.createTempFile("brace-virtual-threads", ".jfr");
    Outcome virtual;
    try (Recording recording = new Recording()) {
      recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
      recording.start();
      virtual = run(virtualThreads());
      recording.stop();
      recording.dump(recorded);
    }
    List<RecordedEvent> pinned = RecordingFile.readAllEvents(recorded).stream()
        .filter(event -> event.getEventType().getName().equals("jdk.VirtualThreadPinned"))
        .collect(Collectors.toList());
    Files.deleteIfExists(recorded);

    assertEquals(List.of(), virtual.unexpected, "every call ends as an answer or a timeout");
    assertEquals(HANGING, hangingCalls().size());
    assertEquals(hangingCalls(), virtual.timedOut(), "the hanging calls, and only they, time out");
    assertEquals(CALLS - HANGING, virtual.answered.get());
    assertTrue(pinned.isEmpty(), pinned.size() + " pinned carrier(s):\n" + pinned.stream().limit(3)
        .map(VirtualThreadsTest::describe).collect(Collectors.joining("\n")));

    Outcome platform = run(Thread::new);
    assertEquals(List.of(), platform.unexpected);
    System.out.printf("[virtual threads] %,d calls: virtual %,d ms (%,.0f calls/s), platform %,d ms (%,.0f calls/s), 0 pinned%n",
        CALLS, TimeUnit.NANOSECONDS.toMillis(virtual.nanos), perSecond(virtual),
        TimeUnit.NANOSECONDS.toMillis(platform.nanos), perSecond(platform));
  }

  /**
   * Takes every path once, one call at a time, before the recording starts: a class is loaded under
   * the class loader's monitor, and 10,000 threads that all reach a class not yet loaded wait for
   * that monitor. That is the JVM loading classes once, not Brace's call path, which is what the
   * recording judges. Short timeouts here, so the hanging calls end at once; then a bulkhead of one,
   * and a limiter of one token at a time, so that calls started together wait for each.
   */
  private static void warmUp(ThreadFactory threads) throws InterruptedException {
    Registry.Builder quickTimeouts = Registry.builder()
        .timeout("VirtualThreadsTest.Waiting.interruptingHanging", t -> t.duration("50ms"))
        .timeout("VirtualThreadsTest.Waiting.abandoningHanging", t -> t.duration("50ms"));
    Waiting client = ResilientVirtualThreadsTest_Waiting.wrap(new Dependency(), quickTimeouts.build());
    for (int number : new int[] {2, 3, 5, 15, 0, 1}) {
      together(threads, client, number);
    }
    // A bulkhead of one behind a generous limiter: calls started together wait for the permit.
    Waiting fullBulkhead = ResilientVirtualThreadsTest_Waiting.wrap(new Dependency(),
        Registry.builder().bulkhead("vt-bulkhead", b -> b.maxConcurrent(1)).build());
    together(threads, fullBulkhead, 4, 6, 7, 9, 12, 13);
    // A limiter of one token at a time: calls started together wait for their tokens.
    Waiting slowLimiter = ResilientVirtualThreadsTest_Waiting.wrap(new Dependency(),
        Registry.builder().rateLimit("vt-limiter", l -> l.permits(100).per("1s").burst(1)).build());
    together(threads, slowLimiter, 4, 6, 7, 9);
  }

  /** Starts one call per number at once, each on a thread of its own, and waits for all of them. */
  private static void together(ThreadFactory threads, Waiting client, int... numbers) throws InterruptedException {
    List<Thread> calls = new java.util.ArrayList<>();
    for (int number : numbers) {
      calls.add(threads.newThread(() -> {
        try {
          call(client, number);
        } catch (IOException | RuntimeException expectedForSome) {
          // The hanging ones time out: that path is warmed up too.
        }
      }));
    }
    calls.forEach(Thread::start);
    for (Thread call : calls) {
      call.join(10_000);
    }
  }

  /**
   * A pinned event with its whole stack: the event's own text shows five frames, which leaves out
   * where a pin inside the JDK was reached from.
   */
  static String describe(RecordedEvent pinned) {
    StringBuilder text = new StringBuilder("jdk.VirtualThreadPinned for ").append(pinned.getDuration().toNanos() / 1000)
        .append(" µs");
    if (pinned.hasField("pinnedReason")) {
      text.append(", ").append(pinned.getValue("pinnedReason").toString());
    }
    if (pinned.getStackTrace() == null) {
      return text.append(", no stack recorded").toString();
    }
    for (RecordedFrame frame : pinned.getStackTrace().getFrames()) {
      text.append("\n    at ").append(frame.getMethod().getType().getName()).append('.')
          .append(frame.getMethod().getName()).append(':').append(frame.getLineNumber());
    }
    if (pinned.getStackTrace().isTruncated()) {
      text.append("\n    … (deeper frames not recorded)");
    }
    return text.toString();
  }

  private static double perSecond(Outcome outcome) {
    return CALLS / (outcome.nanos / 1e9);
  }

  /** One call per thread, half in each timeout mode, through a fresh registry on the system clock. */
  private static Outcome run(ThreadFactory threads) throws InterruptedException {
    Waiting client = ResilientVirtualThreadsTest_Waiting.wrap(new Dependency(), Registry.builder().build());
    Outcome outcome = new Outcome();
    CountDownLatch done = new CountDownLatch(CALLS);
    long start = System.nanoTime();
    for (int n = 0; n < CALLS; n++) {
      int number = n;
      threads.newThread(() -> {
        try {
          String answer = call(client, number);
          if (answer.equals("ok")) {
            outcome.answered.incrementAndGet();
          } else {
            outcome.unexpected.add(new AssertionError("call " + number + " answered " + answer));
          }
        } catch (TimeoutExceededException expected) {
          outcome.timedOut[number] = true;
        } catch (Throwable failure) {
          outcome.unexpected.add(failure);
        } finally {
          done.countDown();
        }
      }).start();
    }
    assertTrue(done.await(2, TimeUnit.MINUTES), "calls still running after two minutes: " + done.getCount());
    outcome.nanos = System.nanoTime() - start;
    return outcome;
  }

  /** @return {@code Thread.ofVirtual().factory()}, looked up so this test compiles for Java 17 */
  private static ThreadFactory virtualThreads() throws Throwable {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    Class<?> builder = Class.forName("java.lang.Thread$Builder$OfVirtual");
    Object ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(builder)).invoke();
    return (ThreadFactory) lookup.findVirtual(Class.forName("java.lang.Thread$Builder"), "factory",
        MethodType.methodType(ThreadFactory.class)).invoke(ofVirtual);
  }
}
