package dev.brace.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.ConfigurationException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ConfigBuildersTest {

  @Test
  void defaultsComeFromTheAnnotations() {
    RetryConfig retry = RetryConfig.builder("C.m").build();
    assertEquals(3, retry.maxAttempts());
    assertEquals(Duration.ofMillis(100), retry.delay());
    assertEquals(Duration.ofSeconds(30), retry.maxDelay());
    assertEquals(2.0, retry.multiplier());
    assertEquals(Retry.Jitter.FULL, retry.jitter());
    assertTrue(retry.maxDuration().isEmpty());
    assertEquals(List.of(Exception.class), retry.on());
    assertEquals(List.of(), retry.ignore());
    assertNull(retry.onResult());
    assertEquals(Duration.ofSeconds(60), retry.maxRetryAfter());

    CircuitBreakerConfig breaker = CircuitBreakerConfig.builder("api").build();
    assertEquals(5, breaker.failureThreshold());
    assertEquals(1, breaker.successThreshold());
    assertEquals(Duration.ofSeconds(30), breaker.resetTimeout());
    assertEquals(20, breaker.minimumCalls());
    assertEquals(10, breaker.windowBuckets());
    assertEquals(10000, breaker.maxKeys());

    RateLimitConfig limiter = RateLimitConfig.builder("api").permits(20).build();
    assertEquals(20, limiter.burst(), "burst 0 means permits");
    assertEquals(Duration.ofSeconds(1), limiter.per());
    assertEquals(Duration.ZERO, limiter.maxWait());

    BulkheadConfig bulkhead = BulkheadConfig.builder("api").build();
    assertEquals(10, bulkhead.maxConcurrent());

    TimeoutConfig timeout = TimeoutConfig.builder("C.m").duration("1s").build();
    assertEquals(Timeout.Mode.INTERRUPT, timeout.mode());

    RetryBudgetConfig budget = RetryBudgetConfig.builder("b").build();
    assertEquals(0.2, budget.percentCanRetry());
    assertEquals(10.0, budget.minRetriesPerSecond());
    assertEquals(Duration.ofSeconds(10), budget.ttl());
  }

  @Test
  void everyOutOfRangeValueNamesInstanceAttributeValueAndAcceptedForm() {
    assertRefused("maxAttempts", "\"0\"", () -> RetryConfig.builder("C.m").maxAttempts(0));
    assertRefused("delay", "\"10 parsecs\"", () -> RetryConfig.builder("C.m").delay("10 parsecs"));
    ConfigurationException tooLong = assertThrows(ConfigurationException.class,
        () -> RetryConfig.builder("C.m").maxDelay("9999999999999999h"));
    assertTrue(tooLong.getMessage().contains("expected a duration of at most about 292 years"), tooLong.getMessage());
    assertRefused("multiplier", "NaN", () -> RetryConfig.builder("C.m").multiplier(Double.NaN));
    assertRefused("multiplier", "Infinity", () -> RetryConfig.builder("C.m").multiplier(Double.POSITIVE_INFINITY));
    assertRefused("multiplier", "0.5", () -> RetryConfig.builder("C.m").multiplier(0.5));
    assertRefused("maxDuration", "0ms", () -> RetryConfig.builder("C.m").maxDuration("0ms"));
    assertRefused("maxDelay", "50ms", () -> RetryConfig.builder("C.m").delay("100ms").maxDelay("50ms").build());
    assertRefused("failureThreshold", "\"0\"", () -> CircuitBreakerConfig.builder("api").failureThreshold(0));
    assertRefused("failureRate", "1.5", () -> CircuitBreakerConfig.builder("api").failureRate(1.5));
    assertRefused("failureRate", "NaN", () -> CircuitBreakerConfig.builder("api").failureRate(Double.NaN));
    assertRefused("failureRate", "-0.1", () -> CircuitBreakerConfig.builder("api").failureRate(-0.1));
    assertRefused("windowBuckets", "\"0\"", () -> CircuitBreakerConfig.builder("api").windowBuckets(0));
    assertRefused("windowBuckets", "\"1001\"", () -> CircuitBreakerConfig.builder("api").windowBuckets(1001));
    assertRefused("resetTimeout", "0ms", () -> CircuitBreakerConfig.builder("api").resetTimeout("0s"));
    assertRefused("minimumCalls", "\"0\"", () -> CircuitBreakerConfig.builder("api").minimumCalls(0));
    assertRefused("permits", "\"0\"", () -> RateLimitConfig.builder("api").permits(0));
    assertRefused("permits", "null", () -> RateLimitConfig.builder("api").build());
    assertRefused("burst", "\"-1\"", () -> RateLimitConfig.builder("api").burst(-1));
    assertRefused("per", "\"soon\"", () -> RateLimitConfig.builder("api").per("soon"));
    assertRefused("maxConcurrent", "\"0\"", () -> BulkheadConfig.builder("api").maxConcurrent(0));
    assertRefused("value", "null", () -> TimeoutConfig.builder("C.m").build());
    assertRefused("value", "0ms", () -> TimeoutConfig.builder("C.m").duration("0ms"));
    assertRefused("percentCanRetry", "1.2", () -> RetryBudgetConfig.builder("b").percentCanRetry(1.2));
    assertRefused("ttl", "2m", () -> RetryBudgetConfig.builder("b").ttl("2m"));
    assertRefused("ttl", "500ms", () -> RetryBudgetConfig.builder("b").ttl("500ms"));
  }

  private static void assertRefused(String attribute, String value, Executable setting) {
    ConfigurationException refused = assertThrows(ConfigurationException.class, setting);
    assertEquals(attribute, refused.attribute(), refused.getMessage());
    String shown = value.equals("null") ? "null" : "\"" + value.replace("\"", "") + "\"";
    assertTrue(refused.getMessage().contains(attribute + " = " + shown), refused.getMessage());
    assertTrue(refused.getMessage().contains("expected"), refused.getMessage());
  }

  @Test
  void overlayReplacesOnlyWhatTheHigherLayerSets() {
    RetryConfig.Builder annotation = RetryConfig.builder("C.m").maxAttempts(3).delay("1s").on(IOException.class);
    RetryConfig.Builder programmatic = RetryConfig.builder("C.m").maxAttempts(5);

    RetryConfig resolved = RetryConfig.builder("C.m").overlay(annotation).overlay(programmatic).build();

    assertEquals(5, resolved.maxAttempts());
    assertEquals(Duration.ofSeconds(1), resolved.delay());
    assertEquals(List.of(IOException.class), resolved.on());
    assertEquals(3, annotation.build().maxAttempts(), "layers are only read");
  }

  @Test
  void blankNamesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> RetryConfig.builder(" "));
    assertThrows(NullPointerException.class, () -> BulkheadConfig.builder(null));
  }
}
