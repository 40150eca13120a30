package dev.brace.runtime.internal.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.Kind;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Typo detection against the processor's manifest (a fixture under src/test/resources). */
class ConfigAuditTest {
  private final InstanceManifest known = InstanceManifest.load(getClass().getClassLoader());
  private final ConfigAudit audit = new ConfigAudit(known);

  @Test
  void theManifestIsReadFromTheClassPath() {
    assertTrue(known.names(Kind.CIRCUITBREAKER).contains("recs-api"));
    assertTrue(known.names(Kind.TIMEOUT).contains("RecsClient.report"));
  }

  @Test
  void keysThatAddressKnownInstancesPass() {
    assertEquals(List.of(), audit.problems(Map.of(
        "BRACE_CIRCUITBREAKER_RECS_API_FAILURE_THRESHOLD", "10",
        "BRACE_TIMEOUT_RECSCLIENT_REPORT_DURATION", "5s",
        "BRACE_RETRY_RECSCLIENT_RECOMMENDATIONS_ENABLED", "false",
        "BRACE_ENABLED", "true",
        "BRACE_METRICS_PER_KEY", "true",
        "PATH", "/usr/bin"), Map.of(
        "brace.circuitbreaker.recs-api.failure-threshold", "10",
        "brace.timeout.RecsClient.report.duration", "5s",
        "brace.metrics.per-key", "false")));
  }

  @Test
  void aMistypedNameIsReportedWithTheCloseMatch() {
    assertEquals(List.of("BRACE_CIRCUITBREAKER_RECS_APU_FAILURE_THRESHOLD: no circuit breaker RECS_APU; did you mean RECS_API?"),
        audit.problems(Map.of("BRACE_CIRCUITBREAKER_RECS_APU_FAILURE_THRESHOLD", "10"), Map.of()));
    assertEquals(List.of("brace.circuitbreaker.recs-apu.failure-threshold: no circuit breaker recs-apu; did you mean recs-api?"),
        audit.problems(Map.of(), Map.of("brace.circuitbreaker.recs-apu.failure-threshold", "10")));
  }

  @Test
  void aMistypedPropertyOrKindIsReported() {
    List<String> problems = audit.problems(Map.of(
        "BRACE_CIRCUITBREAKER_RECS_API_FAILURE_TRESHOLD", "10",
        "BRACE_CIRCUTBREAKER_RECS_API_FAILURE_THRESHOLD", "10"), Map.of(
        "brace.timeout.RecsClient.report.duraton", "5s"));
    assertEquals(3, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("BRACE_CIRCUITBREAKER_RECS_API_FAILURE_TRESHOLD: a circuit breaker has no property FAILURE_TRESHOLD; did you mean FAILURE_THRESHOLD?"), problems.get(0));
    assertTrue(problems.get(1).startsWith("BRACE_CIRCUTBREAKER_RECS_API_FAILURE_THRESHOLD: no kind CIRCUTBREAKER"), problems.get(1));
    assertTrue(problems.get(2).endsWith("has no property duraton; did you mean duration?"), problems.get(2));
  }

  @Test
  void namesSetThroughTheBuilderCountAsKnown() {
    ConfigAudit withProgrammatic = new ConfigAudit(known.plus(Map.of(Kind.BULKHEAD, Set.of("pool"))));
    assertEquals(List.of(), withProgrammatic.problems(Map.of("BRACE_BULKHEAD_POOL_MAX_CONCURRENT", "3"), Map.of()));
  }

  @Test
  void strictConfigurationMakesATypoAnErrorAtBuildTime() {
    Map<String, String> environment = Map.of("BRACE_CIRCUITBREAKER_RECS_APU_FAILURE_THRESHOLD", "10");
    Registry.builder().environment(environment).systemProperties(Map.of()).build();

    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> Registry.builder().environment(environment).systemProperties(Map.of()).strictConfiguration().build());
    assertTrue(refused.getMessage().contains("did you mean RECS_API?"), refused.getMessage());
  }

  /** The switch as configuration, for a deployment that cannot change the code that builds the registry. */
  @Test
  void strictConfigurationAsAVariableOrAPropertyMakesATypoAnErrorToo() {
    Map<String, String> typo = Map.of("BRACE_CIRCUITBREAKER_RECS_APU_FAILURE_THRESHOLD", "10");
    Map<String, String> strictVariable = new java.util.HashMap<>(typo);
    strictVariable.put("BRACE_STRICT_CONFIGURATION", "true");
    ConfigurationException byVariable = assertThrows(ConfigurationException.class,
        () -> Registry.builder().environment(strictVariable).systemProperties(Map.of()).build());
    assertTrue(byVariable.getMessage().startsWith("[brace:unknown-keys] Brace configuration keys that configure nothing:"),
        byVariable.getMessage());
    assertTrue(byVariable.getMessage().endsWith("did you mean RECS_API?"), "no hint to switch on what is on: " + byVariable.getMessage());

    assertThrows(ConfigurationException.class, () -> Registry.builder().environment(typo)
        .systemProperties(Map.of("brace.strict-configuration", "true")).build());
    assertDoesNotThrow(() -> Registry.builder().environment(strictVariable)
        .systemProperties(Map.of("brace.strict-configuration", "false")).build(), "the property decides over the variable");
    ConfigurationException notASwitch = assertThrows(ConfigurationException.class, () -> Registry.builder()
        .environment(Map.of("BRACE_STRICT_CONFIGURATION", "yes")).systemProperties(Map.of()).build());
    assertTrue(notASwitch.getMessage().contains("BRACE_STRICT_CONFIGURATION"), notASwitch.getMessage());
    assertDoesNotThrow(() -> Registry.builder().environment(Map.of("BRACE_STRICT_CONFIGURATION", "true"))
        .systemProperties(Map.of()).build(), "the switch is a key Brace knows");
  }

  @Test
  void theWarningSaysHowToMakeItAnError() {
    String warning = ConfigAudit.unknownKeys(Map.of(), Map.of("BRACE_CIRCUITBREAKER_RECS_APU_FAILURE_THRESHOLD", "10"),
        Map.of(), false);
    assertTrue(warning.startsWith("[brace:unknown-keys] "), warning);
    assertTrue(warning.endsWith("(brace.strict-configuration=true or BRACE_STRICT_CONFIGURATION=true makes them an error)"),
        warning);
  }

  @Test
  void aBuildsOwnBracePropertyPassesEvenStrictConfiguration() {
    assertDoesNotThrow(() -> Registry.builder().environment(Map.of("BRACE_HOME", "/opt/brace"))
        .systemProperties(Map.of("brace.version", "0.1.0-SNAPSHOT")).strictConfiguration().build());
  }

  @Test
  void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
    assertEquals(0, ConfigAudit.editDistance("abc", "abc"));
    assertEquals(1, ConfigAudit.editDistance("abc", "abd"));
    assertEquals(1, ConfigAudit.editDistance("abc", "ab"));
    assertEquals(3, ConfigAudit.editDistance("", "abc"));
    assertEquals("", ConfigAudit.suggestion("COMPLETELY_DIFFERENT", List.of("RECS_API")));
  }
}
