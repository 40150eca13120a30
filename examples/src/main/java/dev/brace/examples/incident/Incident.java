package dev.brace.examples.incident;

import dev.brace.examples.HttpRecsClient;
import dev.brace.examples.RecsClient;
import dev.brace.examples.ResilientRecsClient;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the incident twice at once, each run against its own service: once through the plain
 * {@link HttpRecsClient}, once through the generated {@code ResilientRecsClient}.
 */
public final class Incident {
  /** The breaker the demo's client names; the live line shows its state. */
  public static final String BREAKER = "recs-api";

  private static final long TICK_MILLIS = 500;

  /**
   * Both runs, finished.
   *
   * @param gameDay the fault injection that made the incident against healthy services, or null
   *     when the services misbehaved as the script says
   */
  public record Result(IncidentScript script, int callers, RunStats without, RunStats with, GameDay gameDay) {}

  private Incident() {}

  /**
   * The demo's incident: the script's phases on the system's clock.
   *
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
    return run(script, Pacing.realTime(script), callers, registry, live);
  }

  /**
   * The incident, paced by {@code pacing}: a test passes one that switches phases by what has
   * happened, on the clock its registry reads.
   *
   * @param script how the service misbehaves in each phase (and, paced in real time, when)
   * @param pacing the incident's clock and phases, shared by both runs and both services
   * @param callers how many callers call at once in each run
   * @param registry the registry of the Brace run (its configuration, its events)
   * @param live where the line every half second goes; null for none
   * @return what happened; its script is the incident as the pacing played it
   * @throws IOException when a service cannot start
   * @throws InterruptedException when interrupted while waiting for the callers
   * @throws IllegalStateException when the pacing cannot take the incident to its end
   */
  public static Result run(IncidentScript script, Pacing pacing, int callers, Registry registry, PrintStream live)
      throws IOException, InterruptedException {
    return run(script, pacing, callers, registry, live, null);
  }

  /**
   * The incident, made by the services (as the script says) or, on a game day, by fault injection
   * in the callers against two healthy services.
   *
   * @param script how the service misbehaves in each phase (a game day injects the same)
   * @param scripted the incident's clock and phases, shared by both runs and both services
   * @param callers how many callers call at once in each run
   * @param registry the registry of the Brace run (its configuration, its events)
   * @param live where the line every half second goes; null for none
   * @param gameDay the fault injection that makes the incident, or null for the scripted services;
   *     its own registry serves the run without Brace, every pattern switched off
   * @return what happened
   * @throws IOException when a service cannot start
   * @throws InterruptedException when interrupted while waiting for the callers
   */
  public static Result run(IncidentScript script, Pacing scripted, int callers, Registry registry, PrintStream live,
      GameDay gameDay) throws IOException, InterruptedException {
    Pacing pacing = gameDay == null ? scripted : gameDay.following(scripted);
    try (RecsService plainService = RecsService.start(script, pacing, gameDay == null);
        RecsService braceService = RecsService.start(script, pacing, gameDay == null)) {
      RecsClient http = new Visits(new HttpRecsClient(HttpRecsClient.defaultHttpClient(), plainService.uri()), pacing);
      RecsClient plainBehindBrace =
          new Visits(new HttpRecsClient(HttpRecsClient.defaultHttpClient(), braceService.uri()), pacing);
      RecsClient resilient = ResilientRecsClient.wrap(plainBehindBrace, registry);
      warmUp(http, callers);
      warmUp(plainBehindBrace, callers);
      RecsClient plain = gameDay == null ? http : gameDay.withoutPatterns(http);
      IncidentRun without = IncidentRun.withoutBrace(
          gameDay == null ? "without Brace" : "every pattern off", plain, plainService, pacing);
      IncidentRun with = IncidentRun.withBrace("with Brace", resilient, braceService, pacing, registry, BREAKER);
      if (live != null) {
        live.printf("services on %s (without Brace) and %s (with Brace); %d callers each; %s in all%n",
            plainService.uri(), braceService.uri(), callers, describe(script));
        live.println(LiveLine.header());
      }
      pacing.begin();
      without.start(callers);
      with.start(callers);
      pacing.drive(2 * callers, tick -> {
        if (live != null) {
          live.println(LiveLine.render(tick - TICK_MILLIS, tick, without, with));
        }
      }, TICK_MILLIS);
      without.awaitEnd();
      with.awaitEnd();
      return new Result(pacing.played(), callers, new RunStats(without), new RunStats(with), gameDay);
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
}
