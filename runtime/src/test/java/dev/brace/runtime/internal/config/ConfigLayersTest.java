package dev.brace.runtime.internal.config;

import dev.brace.runtime.support.LambdaCalls;

import dev.brace.runtime.support.LambdaCalls.Attempt;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.internal.sequence.SyncDriver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.CsvSource;

/** annotation < programmatic < environment < system property, with exact keys. */
class ConfigLayersTest {

  @ParameterizedTest
  @CsvSource({
    "RETRY, RecsClient.recommendations, maxAttempts, BRACE_RETRY_RECSCLIENT_RECOMMENDATIONS_MAX_ATTEMPTS, brace.retry.RecsClient.recommendations.max-attempts",
    "CIRCUITBREAKER, recs-api, failureThreshold, BRACE_CIRCUITBREAKER_RECS_API_FAILURE_THRESHOLD, brace.circuitbreaker.recs-api.failure-threshold",
    "TIMEOUT, RecsClient.report, value, BRACE_TIMEOUT_RECSCLIENT_REPORT_DURATION, brace.timeout.RecsClient.report.duration",
    "RATELIMIT, recs-api, maxWait, BRACE_RATELIMIT_RECS_API_MAX_WAIT, brace.ratelimit.recs-api.max-wait",
    "RETRYBUDGET, recs-api, minRetriesPerSecond, BRACE_RETRYBUDGET_RECS_API_MIN_RETRIES_PER_SECOND, brace.retrybudget.recs-api.min-retries-per-second",
    "BULKHEAD, Outer.Inner, enabled, BRACE_BULKHEAD_OUTER_INNER_ENABLED, brace.bulkhead.Outer.Inner.enabled"
  })
  void keysHaveTheSpecsExactForm(Kind kind, String name, String attribute, String environmentKey, String propertyKey) {
    assertEquals(environmentKey, ConfigKeys.environment(kind, name, attribute));
    assertEquals(propertyKey, ConfigKeys.systemProperty(kind, name, attribute));
  }

  private static ConfigLayers layers(Map<String, String> environment, Map<String, String> properties) {
    return new ConfigLayers(Map.of(), environment, properties);
  }

  @ParameterizedTest
  @CsvSource({
    "maxAttempts, 7", "delay, 250ms", "maxDelay, 1m", "multiplier, 1.5", "jitter, decorrelated",
    "maxDuration, 5s", "budget, shared", "maxRetryAfter, 2s"
  })
  void everyRetryAttributeIsSetFromTheEnvironment(String attribute, String value) {
    String key = ConfigKeys.environment(Kind.RETRY, "C.m", attribute);
    RetryConfig.Builder resolved = layers(Map.of(key, value), Map.of())
        .layered(RetryConfig.builder("C.m"));
    assertTrue(resolved.explicitValues().containsKey(attribute), attribute);
    resolved.build();
  }

  /** A valid value, other than the default, for every attribute settable from text. */
  private static final Map<String, String> SAMPLES = Map.ofEntries(
      Map.entry("maxAttempts", "7"), Map.entry("delay", "250ms"), Map.entry("maxDelay", "1m"),
      Map.entry("multiplier", "1.5"), Map.entry("jitter", "decorrelated"), Map.entry("maxDuration", "5s"),
      Map.entry("budget", "shared"), Map.entry("maxRetryAfter", "2s"), Map.entry("failureThreshold", "9"),
      Map.entry("successThreshold", "2"), Map.entry("resetTimeout", "5s"), Map.entry("failureRate", "0.5"),
      Map.entry("window", "10s"), Map.entry("windowCalls", "50"), Map.entry("minimumCalls", "5"),
      Map.entry("windowBuckets", "20"), Map.entry("maxKeys", "100"), Map.entry("backend", "redis"),
      Map.entry("permits", "7"), Map.entry("per", "2s"), Map.entry("burst", "9"), Map.entry("maxWait", "100ms"),
      Map.entry("maxConcurrent", "3"), Map.entry("value", "5s"), Map.entry("mode", "abandon"),
      Map.entry("percentCanRetry", "0.5"), Map.entry("minRetriesPerSecond", "2"), Map.entry("ttl", "20s"), Map.entry("inherit", "false"),
      Map.entry("adaptive", "true"), Map.entry("bulkhead.adaptive", "vegas"), Map.entry("minPermits", "2"), Map.entry("decrease", "0.7"),
      Map.entry("increase", "0.5"), Map.entry("minConcurrent", "2"), Map.entry("initialConcurrent", "3"),
      Map.entry("defaultShare", "0.8"), Map.entry("sheddableShare", "0.4"),
      Map.entry("slowCall", "2s"), Map.entry("slowCallRate", "0.5"), Map.entry("maxAge", "5m"), Map.entry("fresh", "5s"),
      Map.entry("maxEntries", "500"),
      Map.entry("maxHedges", "3"),
      Map.entry("faultRate", "0.25"), Map.entry("fault", "java.net.ConnectException"), Map.entry("latency", "2s"),
      Map.entry("latencyRate", "0.1"), Map.entry("seed", "42"));

  static Stream<Arguments> everyKindAndAttribute() {
    List<Arguments> all = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (String attribute : kind.builder("x").textAttributes()) {
        all.add(Arguments.of(kind, attribute));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyKindAndAttribute")
  void everyAttributeOfEveryKindIsReadFromItsEnvironmentVariableAndItsSystemProperty(Kind kind, String attribute) {
    String sample = SAMPLES.getOrDefault(kind.key() + "." + attribute, SAMPLES.get(attribute));
    assertTrue(sample != null, "no sample value for " + attribute + "; add one");
    Object expected = kind.builder("api-1.x")
        .setText(attribute, sample).explicitValues().get(attribute);

    for (ConfigLayers layers : List.of(
        layers(Map.of(ConfigKeys.environment(kind, "api-1.x", attribute), sample), Map.of()),
        layers(Map.of(), Map.of(ConfigKeys.systemProperty(kind, "api-1.x", attribute), sample)))) {
      Object resolved = resolveRaw(layers, kind, "api-1.x").explicitValues().get(attribute);
      assertEquals(expected, resolved, kind + " " + attribute);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static ConfigBuilder<?> resolveRaw(ConfigLayers layers, Kind kind, String name) {
    return captured(layers, kind, (ConfigBuilder) kind.builder(name),
        (ConfigBuilder) kind.builder(name));
  }

  private static <B extends ConfigBuilder<B>> B captured(ConfigLayers layers, Kind kind, B annotation, B fresh) {
    return layers.layered(annotation);
  }

  @Test
  void everyKindTakesItsTextAttributes() {
    Map<String, String> environment = Map.of(
        "BRACE_CIRCUITBREAKER_API_FAILURE_RATE", "0.5",
        "BRACE_CIRCUITBREAKER_API_WINDOW_CALLS", "50",
        "BRACE_RATELIMIT_API_PERMITS", "7",
        "BRACE_RATELIMIT_API_BURST", "9",
        "BRACE_BULKHEAD_API_MAX_CONCURRENT", "3",
        "BRACE_TIMEOUT_C_M_DURATION", "5s",
        "BRACE_TIMEOUT_C_M_MODE", "abandon");
    ConfigLayers layers = layers(environment, Map.of());

    CircuitBreakerConfig breaker = layers.layered(CircuitBreakerConfig.builder("api")).build();
    RateLimitConfig limiter = layers.layered(RateLimitConfig.builder("api").permits(1)).build();
    BulkheadConfig bulkhead = layers.layered(BulkheadConfig.builder("api")).build();
    TimeoutConfig timeout = layers.layered(TimeoutConfig.builder("C.m").duration("1s")).build();

    assertEquals(0.5, breaker.failureRate());
    assertEquals(50, breaker.windowCalls());
    assertEquals(7, limiter.permits());
    assertEquals(9, limiter.burst());
    assertEquals(3, bulkhead.maxConcurrent());
    assertEquals(Duration.ofSeconds(5), timeout.duration());
    assertEquals(Timeout.Mode.ABANDON, timeout.mode());
  }

  @Test
  void precedenceIsAnnotationThenProgrammaticThenEnvironmentThenSystemProperty() {
    RetryConfig.Builder annotation = RetryConfig.builder("C.m").maxAttempts(2).delay("1s").multiplier(3).jitter(Retry.Jitter.EQUAL);
    RetryConfig.Builder programmatic = RetryConfig.builder("C.m").delay("2s").multiplier(4).jitter(Retry.Jitter.NONE);
    ConfigLayers layers = new ConfigLayers(
        Map.of(Kind.RETRY, Map.of("C.m", programmatic)),
        Map.of("BRACE_RETRY_C_M_MULTIPLIER", "5", "BRACE_RETRY_C_M_JITTER", "FULL"),
        Map.of("brace.retry.C.m.jitter", "DECORRELATED"));

    RetryConfig resolved = layers.layered(annotation).build();

    assertEquals(2, resolved.maxAttempts(), "annotation");
    assertEquals(Duration.ofSeconds(2), resolved.delay(), "programmatic over annotation");
    assertEquals(5.0, resolved.multiplier(), "environment over programmatic");
    assertEquals(Retry.Jitter.DECORRELATED, resolved.jitter(), "system property over environment");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "BRACE_RETRY_C_M_MAX_ATTEMPTS | three | an integer",
    "BRACE_RETRY_C_M_MAX_ATTEMPTS | -1 | an integer ≥ 1",
    "BRACE_RETRY_C_M_MULTIPLIER | NaN | a finite number ≥ 1.0",
    "BRACE_RETRY_C_M_DELAY | 100 parsecs | a decimal number and a unit",
    "BRACE_RETRY_C_M_DELAY | 100 | a decimal number and a unit",
    "BRACE_RETRY_C_M_JITTER | SOMETIMES | one of [NONE, FULL, EQUAL, DECORRELATED]",
    "BRACE_RETRY_C_M_MAX_DURATION | -5s | a decimal number and a unit"
  })
  void aBadValueFailsFastNamingTheVariableTheValueAndTheAcceptedForm(String key, String value, String accepted) {
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> layers(Map.of(key, value), Map.of())
        .layered(RetryConfig.builder("C.m")));
    assertTrue(refused.getMessage().startsWith("[brace:invalid-value] " + key + "=" + value + ": "), refused.getMessage());
    assertTrue(refused.getMessage().contains(accepted), refused.getMessage());
  }

  @Test
  void aRatioAboveOneIsRefused() {
    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> layers(Map.of(), Map.of("brace.circuitbreaker.api.failure-rate", "1.5"))
            .layered(CircuitBreakerConfig.builder("api")));
    assertTrue(refused.getMessage().contains("brace.circuitbreaker.api.failure-rate=1.5"), refused.getMessage());
    assertTrue(refused.getMessage().contains("(0, 1]"), refused.getMessage());
  }

  @Test
  void enabledFalseTurnsOneInstanceOrEverythingIntoAPassThrough() throws Throwable {
    CallDefinition definition = LambdaCalls.builder("C.m")
        .with(RetryConfig.builder("C.m").maxAttempts(3).delay("1ms").on(IOException.class))
        .build();
    AtomicInteger calls = new AtomicInteger();
    Attempt<String> failing = () -> {
      calls.incrementAndGet();
      throw new IOException("down");
    };

    for (Map<String, String> environment : List.of(
        Map.of("BRACE_RETRY_C_M_ENABLED", "false"), Map.of("BRACE_ENABLED", "FALSE"))) {
      calls.set(0);
      ResilientCall guard = Registry.builder().timeSource(new ManualTimeSource()).environment(environment)
          .systemProperties(Map.of()).build().resolve(definition);
      assertThrows(IOException.class, () -> LambdaCalls.call(guard, failing, null));
      assertEquals(1, calls.get(), environment.toString());
    }

    Registry switchedOff = Registry.builder().environment(Map.of("BRACE_CIRCUITBREAKER_API_ENABLED", "false"))
        .systemProperties(Map.of()).build();
    switchedOff.resolve(LambdaCalls.builder("C.b").with(CircuitBreakerConfig.builder("api")).build());
    IllegalArgumentException notCreated = assertThrows(IllegalArgumentException.class, () -> switchedOff.circuitBreaker("api"));
    assertTrue(notCreated.getMessage().contains("switched off by configuration (BRACE_CIRCUITBREAKER_API_ENABLED"), notCreated.getMessage());
    assertTrue(!switchedOff.names().containsKey("circuitbreaker"));

    ConfigurationException notABoolean = assertThrows(ConfigurationException.class, () -> Registry.builder()
        .environment(Map.of("BRACE_ENABLED", "nope")).systemProperties(Map.of()).build().resolve(definition));
    assertTrue(notABoolean.getMessage().contains("BRACE_ENABLED=nope"), notABoolean.getMessage());
  }

  @Test
  void twoSitesWithDifferentSettingsForOneNameConflictUnlessSetOutsideTheAnnotations() {
    CallDefinition first = LambdaCalls.builder("A.m")
        .with(CircuitBreakerConfig.builder("api").failureThreshold(3)).build();
    CallDefinition second = LambdaCalls.builder("B.m")
        .with(CircuitBreakerConfig.builder("api").failureThreshold(5)).build();

    Registry plain = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    plain.resolve(first);
    ConfigurationException conflict = assertThrows(ConfigurationException.class, () -> plain.resolve(second));
    assertTrue(conflict.getMessage().startsWith("[brace:name-conflict] "), conflict.getMessage());
    assertTrue(conflict.getMessage().contains("failureThreshold = 3 at A.m and 5 at B.m"), conflict.getMessage());

    Registry settled = Registry.builder()
        .environment(Map.of("BRACE_CIRCUITBREAKER_API_FAILURE_THRESHOLD", "4")).systemProperties(Map.of()).build();
    settled.resolve(first);
    settled.resolve(second);
  }
}
