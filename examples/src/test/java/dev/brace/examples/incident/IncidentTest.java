package dev.brace.examples.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.examples.incident.IncidentRun.Outcome;
import dev.brace.examples.incident.IncidentRun.RecordedEvent;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's story against the real HTTP service: with Brace, far fewer requests reach the service
 * while it is down, callers get fallbacks instead of errors, and the breaker opens and closes again.
 *
 * <p>The incident is the demo's, paced by what happened rather than by the wall clock ({@link
 * CountedPacing}): each phase lasts a number of rounds in which every caller makes one call, the
 * brownout's refusals are seeded, and the registry's clock moves only while every caller waits on
 * it. So each phase holds the calls its claims need however slow or loaded the machine is.
 */
class IncidentTest {
  private static final IncidentScript SCRIPT = IncidentScript.of(800, 1_200, 1_200, 1_500, 1_800);
  private static final int CALLERS = 8;
  /**
   * Rounds per phase. Healthy: every caller's five returning users answered once (seven calls
   * each). Brownout: 48 first attempts, of which the seed refuses the very first. Spike: the
   * breaker sees four rounds of timeouts. Hard down: 320 plain requests, against which Brace's few
   * (the attempts before the breaker opens, then one probe a second) are compared. Recovery: 1.8 s
   * on the registry's clock, longer than the breaker's one-second reset.
   */
  private static final Map<Phase, Integer> ROUNDS = Map.of(
      Phase.HEALTHY, 8, Phase.BROWNOUT, 6, Phase.LATENCY_SPIKE, 4, Phase.HARD_DOWN, 40, Phase.RECOVERY, 30);
  /**
   * Of the brownout's first 300 draws under this seed, the second refuses (so some call is retried)
   * and no run of ten or more refuses more than 54% (so the breaker, at 60%, stays closed there).
   */
  private static final long SEED = 4;
  private static Incident.Result result;
  private static Registry registry;

  @BeforeAll
  static void runTheIncident() throws Exception {
    IncidentScript demo = IncidentScript.standard();  // the demo's misbehaviour; the rounds replace its durations
    CountedPacing pacing = new CountedPacing(demo, ROUNDS, SEED, Duration.ofMinutes(3));
    // No BRACE_* variable of the machine running the tests may change the story.
    registry = Registry.builder().environment(Map.of()).systemProperties(Map.of())
        .timeSource(pacing.timeSource()).scheduler(pacing.scheduler()).wallClock(pacing.wallClock())
        .build();
    result = Incident.run(demo, pacing, CALLERS, registry, null);
  }

  @Test
  void withBraceFarFewerRequestsReachTheServiceWhileItIsDown() {
    long without = result.without().receivedIn(Phase.HARD_DOWN);
    long with = result.with().receivedIn(Phase.HARD_DOWN);

    // Every plain call of the hard down is one request: the phase's rounds fix how many.
    assertEquals(CALLERS * ROUNDS.get(Phase.HARD_DOWN), without, "the plain callers keep calling");
    assertTrue(with * 5 < without, "with Brace " + with + " requests, without " + without);
  }

  @Test
  void withoutBraceCallersSeeTheErrorsWithBraceTheyGetFallbacks() {
    RunStats without = result.without();
    RunStats with = result.with();

    assertTrue(without.count(Phase.HARD_DOWN, Outcome.ERROR) > 0);
    assertEquals(0, without.count(Outcome.FALLBACK));
    assertEquals(0, with.count(Outcome.ERROR), "the fallback answers every failure");
    assertTrue(with.count(Phase.HARD_DOWN, Outcome.FALLBACK) > 0);
    assertEquals(with.count(Outcome.FALLBACK), with.events("fallback.used"),
        "callers and the registry's events tell the same story");
  }

  @Test
  void inTheHardDownEveryUserAnsweredBeforeGetsTheirEarlierAnswerAndOnlyOthersTheEditorsPicks() {
    RunStats with = result.with();
    List<IncidentRun.Call> hardDown = with.calls().stream().filter(call -> call.phase() == Phase.HARD_DOWN).toList();
    long stale = hardDown.stream().filter(call -> call.outcome() == Outcome.STALE).count();

    assertTrue(stale > 0, "some users answered before the hard down come back during it");
    // The phase changes only between rounds, so no call of the hard down meets a recovered service.
    assertEquals(List.of(), hardDown.stream()
        .filter(call -> call.answeredBefore() && call.outcome() != Outcome.STALE)
        .toList(), "a user answered before gets their earlier answer");
    assertEquals(List.of(), hardDown.stream()
        .filter(call -> !call.answeredBefore() && call.outcome() == Outcome.STALE)
        .toList(), "nothing is remembered for a user never answered");
    assertEquals(with.count(Outcome.STALE), with.events("stale.served"),
        "every stale answer a caller saw is a stale.served event, and no other");
    assertEquals(0, result.without().count(Outcome.STALE));
  }

  @Test
  void theBreakerOpensInTheIncidentAndClosesInTheRecovery() {
    List<RecordedEvent> events = result.with().events();
    // When each phase began, on the clock that also stamped the events.
    long spike = result.script().phaseStarts().get(Phase.LATENCY_SPIKE.ordinal()).toMillis();
    long recovery = result.script().phaseStarts().get(Phase.RECOVERY.ordinal()).toMillis();

    assertTrue(events.stream().anyMatch(event -> event.kind().equals("circuit.opened")
        && event.atMillis() >= spike && event.atMillis() < recovery), "opened during the spike or the hard down");
    assertTrue(events.stream().anyMatch(event -> event.kind().equals("circuit.closed") && event.atMillis() >= recovery),
        "closed again in the recovery");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker(Incident.BREAKER).state());
    assertTrue(result.with().events("circuit.rejected") > 0, "while open, calls were refused without a request");
  }

  @Test
  void retriesHappenInTheBrownoutOnlyWithBrace() {
    assertEquals(0, result.without().repeatsIn(Phase.BROWNOUT));
    assertTrue(result.with().repeatsIn(Phase.BROWNOUT) > 0);
  }

  @Test
  void theReportIsOnePageWithATimelinePerRun(@TempDir Path directory) throws Exception {
    Path report = directory.resolve("report.html");

    HtmlReport.write(result, report);

    String page = Files.readString(report);
    assertEquals(2, page.split("<svg ", -1).length - 1);
    assertTrue(page.contains("breaker open from"), "the breaker band shows the open circuit");
    assertTrue(page.contains("the user's earlier answer (stale)"), "stale answers have their own series");
    assertTrue(page.contains("#9ccc65"), "and their own colour");
    for (String fetch : List.of("src=", "href=", "url(", "@import")) {
      assertTrue(!page.contains(fetch), "self-contained, but has " + fetch);
    }
  }

  @Test
  void theScriptGoesThroughThePhasesInOrder() {
    assertEquals(Phase.HEALTHY, SCRIPT.phaseAt(Duration.ZERO));
    assertEquals(Phase.BROWNOUT, SCRIPT.phaseAt(Duration.ofMillis(800)));
    assertEquals(Phase.RECOVERY, SCRIPT.phaseAt(SCRIPT.total()));
  }

  @Test
  void eachPhaseHeldItsRoundsOfCallsAndEveryCallStartedInThePhaseItIsCountedIn() {
    for (Phase phase : Phase.values()) {
      RunStats[] runs = {result.without(), result.with()};
      for (RunStats run : runs) {
        assertEquals(CALLERS * ROUNDS.get(phase), run.calls().stream().filter(call -> call.phase() == phase).count(),
            run.run().title() + ", " + phase.label());
      }
    }
    for (IncidentRun.Call call : result.with().calls()) {
      assertEquals(call.phase(), result.script().phaseAt(Duration.ofMillis(call.startMillis())),
          "the played script puts each call in the phase it started in: " + call);
    }
  }
}
