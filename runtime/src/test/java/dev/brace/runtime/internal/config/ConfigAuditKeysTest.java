package dev.brace.runtime.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.config.Kind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the audit of unknown keys says about each malformed key (the fixture manifest in src/test/resources). */
class ConfigAuditKeysTest {
  private final ConfigAudit audit = new ConfigAudit(InstanceManifest.load(getClass().getClassLoader()));

  @Test
  void aPropertyThatEndsAnotherIsReadAsTheLongerOne() {
    // MAX_DELAY ends with _DELAY: the name is RECSCLIENT_RECOMMENDATIONS, not ..._MAX.
    assertEquals(List.of(), audit.problems(Map.of(
        "BRACE_RETRY_RECSCLIENT_RECOMMENDATIONS_MAX_DELAY", "1s",
        "BRACE_RETRY_RECSCLIENT_RECOMMENDATIONS_DELAY", "1s"), Map.of()));
    assertEquals(List.of("BRACE_RETRY_NOPE_MAX_DELAY: no retry NOPE"),
        audit.problems(Map.of("BRACE_RETRY_NOPE_MAX_DELAY", "1s"), Map.of()));
  }

  @Test
  void aKeyWithoutAPropertyOrWithoutANameSaysWhatIsExpected() {
    List<String> problems = audit.problems(Map.of("BRACE_RETRY_SOMETHING", "1"), Map.of(
        "brace.retry.RecsClient", "1",
        "brace.retry..max-attempts", "1",
        "brace.retry", "1"));
    assertTrue(problems.get(0).startsWith("BRACE_RETRY_SOMETHING: no retry property at the end of SOMETHING; expected one of [MAX_ATTEMPTS, DELAY, MAX_DELAY"),
        problems.get(0));
    assertEquals("brace.retry: expected brace.retry.<name>.<property>", problems.get(1));
    assertEquals("brace.retry..max-attempts: expected brace.retry.<name>.<property>", problems.get(2));
    assertEquals("brace.retry.RecsClient: expected brace.retry.<name>.<property>", problems.get(3));
    assertEquals(4, problems.size(), problems.toString());
  }

  @Test
  void faultInjectionMayNameAnyInstanceOrCallAndItsSwitchIsKnown() {
    assertEquals(List.of(), audit.problems(Map.of(
        "BRACE_CHAOS_ENABLED", "true",
        "BRACE_CHAOS_RECS_API_FAULT_RATE", "0.5",
        "BRACE_CHAOS_RECSCLIENT_REPORT_LATENCY", "2s",
        "BRACE_CHAOS_RECS_API_ENABLED", "false"), Map.of(
        "brace.chaos.enabled", "true",
        "brace.chaos.RecsClient.recommendations.seed", "7")));
    assertEquals(List.of("BRACE_CHAOS_RECS_APU_FAULT_RATE: no fault injection RECS_APU; did you mean RECS_API?",
            "brace.chaos.recs-api.fault-rat: a fault injection has no property fault-rat; did you mean fault-rate?"),
        audit.problems(Map.of("BRACE_CHAOS_RECS_APU_FAULT_RATE", "0.5"), Map.of("brace.chaos.recs-api.fault-rat", "0.5")));
  }

  @Test
  void aPropertyWithAnEmptyKindShowsAllThatFollowsThePrefix() {
    assertEquals(List.of("brace..retry.x: no kind .retry.x; expected one of fallback, staleiferror, retry, hedge, "
            + "circuitbreaker, ratelimit, bulkhead, timeout, retrybudget, deadline, chaos; did you mean retry?"),
        audit.problems(Map.of(), Map.of("brace..retry.x", "1")));
  }

  @Test
  void anUnknownKindListsTheKindsAsEachLayerSpellsThem() {
    assertEquals(List.of("BRACE_RETRI_X_DELAY: no kind RETRI; expected one of FALLBACK, STALEIFERROR, RETRY, HEDGE, "
            + "CIRCUITBREAKER, RATELIMIT, BULKHEAD, TIMEOUT, RETRYBUDGET, DEADLINE, CHAOS; did you mean RETRY?"),
        audit.problems(Map.of("BRACE_RETRI_X_DELAY", "1s"), Map.of()));
  }

  @Test
  void keysWithTheBracePrefixThatAreNoBraceKeyAreLeftAlone() {
    // What a build passes to its tests (Surefire hands on Maven properties as system properties),
    // and what other tools name with the same prefix.
    assertEquals(List.of(), audit.problems(Map.of(
        "BRACE_HOME", "/opt/brace",
        "BRACE_VERSION", "0.1.0",
        "BRACE_", "",
        "BRACE_TEST_JDK21_JAVA", "/usr/bin/java"), Map.of(
        "brace.version", "0.1.0-SNAPSHOT",
        "brace.test.jdk21.java", "/usr/bin/java",
        "brace.build.timestamp", "2026-11-30",
        "brace.", "",
        "brace.profile", "ci")));
  }

  @Test
  void aNearMissOfAKindIsStillReportedWithTheKindMeant() {
    assertEquals(List.of("brace.circutbreaker.recs-api.failure-rate: no kind circutbreaker; expected one of fallback, "
            + "staleiferror, retry, hedge, circuitbreaker, ratelimit, bulkhead, timeout, retrybudget, deadline, chaos; did you mean circuitbreaker?"),
        audit.problems(Map.of(), Map.of("brace.circutbreaker.recs-api.failure-rate", "0.5")));
    List<String> environment = audit.problems(Map.of(
        "BRACE_CIRCUIT_BREAKER_RECS_API_FAILURE_RATE", "0.5",
        "BRACE_RATE_LIMIT_RECS_API_PERMITS", "10",
        "BRACE_RETRI_RECSCLIENT_RECOMMENDATIONS_DELAY", "1s",
        "BRACE_TIMEOUTS_RECSCLIENT_REPORT_DURATION", "1s"), Map.of());
    assertEquals(4, environment.size(), environment.toString());
    assertTrue(environment.get(0).startsWith("BRACE_CIRCUIT_BREAKER_RECS_API_FAILURE_RATE: no kind CIRCUIT;"), environment.get(0));
    assertTrue(environment.get(0).endsWith("; did you mean CIRCUITBREAKER?"), environment.get(0));
    assertTrue(environment.get(1).endsWith("; did you mean RATELIMIT?"), environment.get(1));
    assertTrue(environment.get(2).endsWith("; did you mean RETRY?"), environment.get(2));
    assertTrue(environment.get(3).endsWith("; did you mean TIMEOUT?"), environment.get(3));
  }

  @Test
  void aNearMissOfBracesOtherKeysIsReportedWithTheKeyMeant() {
    assertEquals(List.of("BRACE_ENABLE: no such key; did you mean BRACE_ENABLED?",
            "brace.enabeld: no such key; did you mean brace.enabled?",
            "brace.metrics.per-kye: no such key; did you mean brace.metrics.per-key?"),
        audit.problems(Map.of("BRACE_ENABLE", "false"), Map.of(
            "brace.enabeld", "false",
            "brace.metrics.per-kye", "true")));
  }

  @Test
  void aKindWithNothingAfterItSaysWhatIsExpected() {
    assertEquals(List.of("BRACE_RETRY: expected BRACE_RETRY_<NAME>_<PROPERTY>"), audit.problems(Map.of("BRACE_RETRY", "3"), Map.of()));
  }

  @Test
  void aTypoIsSuggestedUpToAThirdOfItsLengthAndTheFirstOfEquallyCloseNamesWins() {
    // "delya" is two edits from "delay": the tolerance for a short word is 2.
    assertEquals(List.of("brace.retry.RecsClient.recommendations.delya: a retry has no property delya; did you mean delay?"),
        audit.problems(Map.of(), Map.of("brace.retry.RecsClient.recommendations.delya", "1s")));
    assertEquals("; did you mean ab?", ConfigAudit.suggestion("aa", List.of("ab", "ba")));
    assertEquals("; did you mean ba?", ConfigAudit.suggestion("aa", List.of("ba", "ab")));
    // Nine characters tolerate three edits, not four.
    assertEquals("; did you mean abcdefxyz?", ConfigAudit.suggestion("abcdefghi", List.of("abcdefxyz")));
    assertEquals("", ConfigAudit.suggestion("abcdefghi", List.of("abcdewxyz")));
  }

  @Test
  void theAuditReadsTheManifestEvenWithoutAContextClassLoader() throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader saved = thread.getContextClassLoader();
    thread.setContextClassLoader(null);
    try {
      assertEquals(List.of(), ConfigAudit.unknownKeyProblems(Map.of(),
          Map.of("BRACE_CIRCUITBREAKER_RECS_API_FAILURE_THRESHOLD", "3"), Map.of()));
      assertEquals(List.of("BRACE_CIRCUITBREAKER_RECS_APU_FAILURE_THRESHOLD: no circuit breaker RECS_APU; did you mean RECS_API?"),
          ConfigAudit.unknownKeyProblems(Map.of(Kind.BULKHEAD, List.of("pool")),
              Map.of("BRACE_CIRCUITBREAKER_RECS_APU_FAILURE_THRESHOLD", "3"), Map.of()));
    } finally {
      thread.setContextClassLoader(saved);
    }
  }
}
