package dev.brace.examples.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.examples.FakeRecsClient;
import dev.brace.examples.RecsClient;
import dev.brace.examples.ResilientRecsClient;
import dev.brace.examples.ServiceUnavailableException;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The game day's incident is configuration only: each phase's fault injection settings, applied to
 * the running registries, fail the callers' attempts before they reach a healthy dependency; the
 * run without Brace meets the same injected failures with every pattern switched off.
 */
class GameDayTest {
  private final Map<Phase, Map<String, String>> plan = GameDay.plan(IncidentScript.standard());
  private final Registry brace = Registry.builder()
      .environment(GameDay.environmentAt(plan, Phase.HEALTHY, Map.of())).systemProperties(Map.of()).build();
  private final GameDay gameDay = GameDay.of(plan, Map.of(), Map.of(), brace);
  private final FakeRecsClient service = new FakeRecsClient();

  @Test
  void thePlanInjectsTheScriptsIncident() {
    assertEquals(Map.of(), plan.get(Phase.HEALTHY));
    assertEquals("0.3", plan.get(Phase.BROWNOUT).get("BRACE_CHAOS_RECS_API_FAULT_RATE"));
    assertEquals(ServiceUnavailableException.class.getName(), plan.get(Phase.BROWNOUT).get("BRACE_CHAOS_RECS_API_FAULT"));
    assertEquals("1500ms", plan.get(Phase.LATENCY_SPIKE).get("BRACE_CHAOS_RECS_API_LATENCY"));
    assertEquals("1", plan.get(Phase.HARD_DOWN).get("BRACE_CHAOS_RECS_API_FAULT_RATE"));
    assertEquals(Map.of(), plan.get(Phase.RECOVERY));
    assertEquals(3, gameDay.describe().size());
  }

  @Test
  void aHardDownInjectedIntoAHealthyServiceIsAnsweredWithBraceAndAnErrorWithEveryPatternOff() throws Exception {
    RecsClient resilient = ResilientRecsClient.wrap(service, brace);
    RecsClient patternsOff = gameDay.withoutPatterns(service);
    assertEquals(List.of("item-1", "item-2"), resilient.recommendations("ada"));

    gameDay.follow(Phase.HARD_DOWN);
    int reached = service.calls();
    assertEquals(List.of("item-1", "item-2"), resilient.recommendations("ada"), "ada's earlier answer (@StaleIfError)");
    assertEquals(RecsClient.EDITORS_PICKS, resilient.recommendations("grace"), "a user seen first now: the fallback");
    IOException injected = assertThrows(IOException.class, () -> patternsOff.recommendations("ada"));
    assertTrue(injected.getMessage().startsWith("injected by Brace's fault injection 'recs-api'"), injected.getMessage());
    assertEquals(reached, service.calls(), "no injected failure reaches the service");
    assertEquals(List.of("recs-api"), brace.describe().injections().stream().map(i -> i.name()).toList());

    gameDay.follow(Phase.RECOVERY);
    assertTrue(brace.describe().injections().isEmpty());
    assertEquals(List.of("item-1", "item-2"), patternsOff.recommendations("ada"));
    assertEquals(reached + 1, service.calls());
  }
}
