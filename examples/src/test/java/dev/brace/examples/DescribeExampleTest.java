package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Description;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.Kind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the guide's section on describe() says the description of {@link RecsClient}'s registry holds. */
class DescribeExampleTest {

  @Test
  void eachSettingOfTheDemosBreakerNamesTheLayerThatSetIt() {
    Registry registry = Registry.builder()
        .environment(Map.of("BRACE_CIRCUITBREAKER_RECS_API_FAILURE_RATE", "0.25"))
        .systemProperties(Map.of())
        .build();
    ResilientRecsClient.wrap(new FakeRecsClient(), registry);

    Description.Instance breaker = registry.describe(Kind.CIRCUITBREAKER, "recs-api");
    Description.Setting rate = breaker.setting("failureRate").orElseThrow();
    assertEquals("0.25", rate.value());
    assertEquals("environment BRACE_CIRCUITBREAKER_RECS_API_FAILURE_RATE", rate.source().toString());
    assertEquals("annotation on RecsClient", breaker.setting("resetTimeout").orElseThrow().source().toString());
    assertEquals("default", breaker.setting("successThreshold").orElseThrow().source().toString());

    String table = registry.describe().toString();
    System.out.println(table);
    assertTrue(table.contains("RecsClient.recommendations  fallback → staleiferror → retry → circuitbreaker recs-api → ratelimit recs-api"
        + " → bulkhead recs-api → timeout"), table);
    assertTrue(table.matches("(?s).*circuitbreaker recs-api +failureThreshold +5 +default\n"
        + " +successThreshold +1 +default\n"
        + " +resetTimeout +1s +annotation on RecsClient\n"
        + " +failureRate +0.25 +environment BRACE_CIRCUITBREAKER_RECS_API_FAILURE_RATE\n.*"), table);
  }
}
