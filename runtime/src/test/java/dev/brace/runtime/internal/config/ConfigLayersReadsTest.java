package dev.brace.runtime.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryBudgetConfig;
import dev.brace.runtime.config.RetryConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The switches and budgets read from the layers, and how an explained value is shown. */
class ConfigLayersReadsTest {

  private static ConfigLayers layers(Map<String, String> environment, Map<String, String> properties) {
    return new ConfigLayers(Map.of(), environment, properties);
  }

  @Test
  void metricsPerKeyIsOffUnlessSetAndThePropertyDecidesOverTheVariable() {
    assertFalse(layers(Map.of(), Map.of()).metricsPerKey());
    assertTrue(layers(Map.of("BRACE_METRICS_PER_KEY", "true"), Map.of()).metricsPerKey());
    assertTrue(layers(Map.of(), Map.of("brace.metrics.per-key", " TRUE ")).metricsPerKey());
    assertFalse(layers(Map.of("BRACE_METRICS_PER_KEY", "true"), Map.of("brace.metrics.per-key", "false")).metricsPerKey());
    assertTrue(layers(Map.of("BRACE_METRICS_PER_KEY", "false"), Map.of("brace.metrics.per-key", "true")).metricsPerKey());

    ConfigurationException badVariable = assertThrows(ConfigurationException.class,
        () -> layers(Map.of("BRACE_METRICS_PER_KEY", "yes"), Map.of()).metricsPerKey());
    assertTrue(badVariable.getMessage().contains("BRACE_METRICS_PER_KEY=yes: expected true or false"), badVariable.getMessage());
    ConfigurationException badProperty = assertThrows(ConfigurationException.class,
        () -> layers(Map.of("BRACE_METRICS_PER_KEY", "true"), Map.of("brace.metrics.per-key", "1")).metricsPerKey());
    assertTrue(badProperty.getMessage().contains("brace.metrics.per-key=1: expected true or false"), badProperty.getMessage());
  }

  @Test
  void aRetryBudgetLaysTheEnvironmentAndPropertiesOverWhatTheBuilderSet() {
    Map<Kind, Map<String, ConfigBuilder<?>>> programmatic = Map.of(Kind.RETRYBUDGET,
        Map.of("payments", RetryBudgetConfig.builder("payments").percentCanRetry(0.5).minRetriesPerSecond(4)));
    ConfigLayers layers = new ConfigLayers(programmatic,
        Map.of("BRACE_RETRYBUDGET_PAYMENTS_MIN_RETRIES_PER_SECOND", "7", "BRACE_RETRYBUDGET_PAYMENTS_TTL", "20s"),
        Map.of("brace.retrybudget.payments.ttl", "30s"));

    RetryBudgetConfig budget = layers.retryBudget("payments");
    assertEquals(0.5, budget.percentCanRetry());
    assertEquals(7.0, budget.minRetriesPerSecond());
    assertEquals(Duration.ofSeconds(30), budget.ttl());

    ExplainedConfig explained = layers.explainRetryBudget("payments");
    assertEquals(Description.Source.PROGRAMMATIC, explained.source("percentCanRetry"));
    assertEquals(new Description.Source(Description.Layer.ENVIRONMENT, "BRACE_RETRYBUDGET_PAYMENTS_MIN_RETRIES_PER_SECOND"),
        explained.source("minRetriesPerSecond"));
    assertEquals(new Description.Source(Description.Layer.SYSTEM_PROPERTY, "brace.retrybudget.payments.ttl"), explained.source("ttl"));

    assertEquals(Duration.ofSeconds(10), layers(Map.of(), Map.of()).retryBudget("other").ttl(), "an unconfigured budget has the defaults");
    assertEquals(Map.of(Kind.RETRYBUDGET, Set.of("payments")), layers.programmaticNames());
  }

  @Test
  void resolvingASiteAppliesTheHigherLayers() {
    Map<Kind, Map<String, ConfigBuilder<?>>> programmatic = Map.of(
        Kind.RETRY, Map.of("C.m", RetryConfig.builder("C.m").maxAttempts(4)),
        Kind.BULKHEAD, Map.of("pool", BulkheadConfig.builder("pool").maxConcurrent(2)));
    ConfigLayers layers = new ConfigLayers(programmatic, Map.of("BRACE_RETRY_C_M_DELAY", "5ms"), Map.of());
    RetryConfig retry = (RetryConfig) layers.resolve(RetryConfig.builder("C.m").maxAttempts(2).delay("1ms"));
    assertEquals(4, retry.maxAttempts());
    assertEquals(Duration.ofMillis(5), retry.delay());
    assertEquals(Map.of(Kind.RETRY, Set.of("C.m"), Kind.BULKHEAD, Set.of("pool")), layers.programmaticNames());
    assertEquals(Map.of(), layers(Map.of(), Map.of()).programmaticNames());
  }

  @Test
  void aZeroDurationReadsAsNoneOnlyWhereTheAnnotationsEmptyDefaultMeansNone() {
    ConfigLayers layers = layers(Map.of(), Map.of());
    Description.Instance retry = layers.explain(RetryConfig.builder("C.m"), "C.m").describe(List.of());
    assertEquals("none", retry.setting("maxDuration").orElseThrow().value());
    assertEquals("none", retry.setting("onResult").orElseThrow().value());
    Description.Instance limiter = layers.explain(RateLimitConfig.builder("api").permits(5), "C.m").describe(List.of());
    assertEquals("0ms", limiter.setting("maxWait").orElseThrow().value(), "no wait is a wait of zero, not 'none'");
  }

  @Test
  void aValueIsShownAsConfigurationWritesIt() {
    assertEquals("none", ConfigValues.plain(null));
    Predicate<Object> empty = new EmptyResult();
    assertEquals(EmptyResult.class.getName(), ConfigValues.plain(empty));
    assertEquals("{java.io.IOException, 250ms}", ConfigValues.plain(List.of(java.io.IOException.class, Duration.ofMillis(250))));
    assertEquals("\"\"", ConfigValues.describe(""));
    assertEquals("0.5", ConfigValues.describe(0.5));
  }

  /** A result predicate with a name to show. */
  static final class EmptyResult implements Predicate<Object> {
    @Override
    public boolean test(Object result) {
      return result == null;
    }
  }
}
