package dev.brace.examples.incident;

import dev.brace.examples.HttpRecsClient;
import dev.brace.examples.RecsClient;
import dev.brace.examples.ResilientRecsClient;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the incident twice at once, each run against its own service: once through the plain
 * {@link HttpRecsClient}, once through the generated {@code ResilientRecsClient}.
 */
public final class Incident {
  /** The breaker the demo's client names; the live line shows its state. */
  public static final String BREAKER = "recs-api";

  private static final long TICK_MILLIS = 500;

  /** Both runs, finished. */
  public record Result(IncidentScript script, int callers, RunStats without, RunStats with) {}

  private Incident() {}

  /**
   * @param script the incident
   * @param callers how many callers call at once in each run
   * @param registry the registry of the Brace run (its configuration, its events)
   * @param live where the line every half second goes; null for none
   * @return what happened
   * @throws IOException when a service cannot start
   * @throws InterruptedException when interrupted while waiting for the callers
   */
  public static Result run(IncidentScript script, int callers, Registry registry, PrintStream live)
      throws IOException, InterruptedException {
    try (RecsService plainService = RecsService.start(script); RecsService braceService = RecsService.start(script)) {
      RecsClient plain = new Visits(new HttpRecsClient(HttpRecsClient.defaultHttpClient(), plainService.uri()));
      RecsClient plainBehindBrace = new Visits(new HttpRecsClient(HttpRecsClient.defaultHttpClient(), braceService.uri()));
      RecsClient resilient = ResilientRecsClient.wrap(plainBehindBrace, registry);
      warmUp(plain, callers);
      warmUp(plainBehindBrace, callers);
      IncidentRun without = IncidentRun.withoutBrace("without Brace", plain, plainService, script);
      IncidentRun with = IncidentRun.withBrace("with Brace", resilient, braceService, script, registry, BREAKER);
      if (live != null) {
        live.printf("services on %s (without Brace) and %s (with Brace); %d callers each; %s in all%n",
            plainService.uri(), braceService.uri(), callers, describe(script));
        live.println(LiveLine.header());
      }
      long startNanos = System.nanoTime();
      Instant startInstant = Instant.now();
      without.start(callers, startNanos, startInstant);
      with.start(callers, startNanos, startInstant);
      long totalMillis = script.total().toMillis();
      for (long tick = TICK_MILLIS; tick <= totalMillis; tick += TICK_MILLIS) {
        sleepUntil(startNanos + tick * 1_000_000);
        if (live != null) {
          live.println(LiveLine.render(tick - TICK_MILLIS, tick, without, with));
        }
      }
      without.awaitEnd();
      with.awaitEnd();
      return new Result(script, callers, new RunStats(without), new RunStats(with));
    }
  }

  /**
   * A fresh JVM's first HTTP calls take hundreds of milliseconds (class loading, JIT, connection
   * set-up); without this the Brace run's timeout would count them and open the breaker while the
   * service is healthy. Goes around the wrapper, so the registry sees none of it.
   */
  private static void warmUp(RecsClient plain, int callers) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      Thread thread = new Thread(() -> {
        for (int call = 0; call < 10; call++) {
          try {
            plain.recommendations("warm-up");
          } catch (IOException ignored) {
            // the incident has not started; a failure here only means a colder start
          }
        }
      }, "warm-up " + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
  }

  private static String describe(IncidentScript script) {
    return String.format(java.util.Locale.ROOT, "%.0f s", script.total().toMillis() / 1000.0);
  }

  private static void sleepUntil(long deadlineNanos) throws InterruptedException {
    for (long left = deadlineNanos - System.nanoTime(); left > 0; left = deadlineNanos - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
    }
  }
}
