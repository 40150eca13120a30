package dev.brace.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.runtime.ConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The edges of every checked range (the bound itself is accepted, one step past it is refused
 * with the attribute and the value named), the cross-attribute checks made at {@code build()},
 * and every typed setter keeping its value through a fluent chain.
 */
class ConfigBoundsTest {

  @Test
  void theBoundsOfEachRangeAreThemselvesAccepted() {
    assertEquals(1, HedgeConfig.builder("C.m").maxHedges(1).build().maxHedges());
    assertEquals(HedgeConfig.MAX_HEDGES, HedgeConfig.builder("C.m").maxHedges(HedgeConfig.MAX_HEDGES).build().maxHedges());
    refused("maxHedges", String.valueOf(HedgeConfig.MAX_HEDGES + 1), () -> HedgeConfig.builder("C.m").maxHedges(HedgeConfig.MAX_HEDGES + 1));

    assertEquals(1, CircuitBreakerConfig.builder("api").windowBuckets(1).build().windowBuckets());
    assertEquals(CircuitBreakerConfig.MAX_WINDOW_BUCKETS,
        CircuitBreakerConfig.builder("api").windowBuckets(CircuitBreakerConfig.MAX_WINDOW_BUCKETS).build().windowBuckets());
    refused("windowBuckets", "0", () -> CircuitBreakerConfig.builder("api").windowBuckets(0));
    refused("windowBuckets", "1001", () -> CircuitBreakerConfig.builder("api").windowBuckets(1001));

    assertEquals(0.0, CircuitBreakerConfig.builder("api").failureRate(0).build().failureRate());
    assertEquals(1.0, CircuitBreakerConfig.builder("api").failureRate(1).build().failureRate());
    refused("failureRate", "-0.1", () -> CircuitBreakerConfig.builder("api").failureRate(-0.1));

    assertEquals(1.0, BulkheadConfig.builder("pool").defaultShare(1).build().defaultShare());
    assertEquals(1.0, BulkheadConfig.builder("pool").defaultShare(1).sheddableShare(1).build().sheddableShare());
    refused("defaultShare", "0.0", () -> BulkheadConfig.builder("pool").defaultShare(0));
    refused("sheddableShare", "1.01", () -> BulkheadConfig.builder("pool").sheddableShare(1.01));

    refused("decrease", "0.0", () -> RateLimitConfig.builder("api").decrease(0));
    refused("decrease", "1.0", () -> RateLimitConfig.builder("api").decrease(1));

    assertEquals(0.0, RetryBudgetConfig.builder("b").percentCanRetry(0).build().percentCanRetry());
    assertEquals(1.0, RetryBudgetConfig.builder("b").percentCanRetry(1).build().percentCanRetry());
    refused("percentCanRetry", "1.5", () -> RetryBudgetConfig.builder("b").percentCanRetry(1.5));
    assertEquals(Duration.ofSeconds(1), RetryBudgetConfig.builder("b").ttl(Duration.ofSeconds(1)).build().ttl());
    assertEquals(Duration.ofSeconds(60), RetryBudgetConfig.builder("b").ttl("60s").build().ttl());
    refused("ttl", "999ms", () -> RetryBudgetConfig.builder("b").ttl("999ms"));
    refused("ttl", "61s", () -> RetryBudgetConfig.builder("b").ttl(Duration.ofSeconds(61)));
  }

  @Test
  void crossAttributeChecksAcceptEqualValues() {
    // An adaptive bulkhead may start at either bound, and its bounds may meet.
    BulkheadConfig atFloor = BulkheadConfig.builder("pool").adaptive(Bulkhead.Adaptive.AIMD)
        .maxConcurrent(8).minConcurrent(2).initialConcurrent(2).build();
    assertEquals(2, atFloor.initialConcurrent());
    BulkheadConfig atCeiling = BulkheadConfig.builder("pool").adaptive(Bulkhead.Adaptive.AIMD)
        .maxConcurrent(8).minConcurrent(2).initialConcurrent(8).build();
    assertEquals(8, atCeiling.initialConcurrent());
    BulkheadConfig pinned = BulkheadConfig.builder("pool").adaptive(Bulkhead.Adaptive.VEGAS)
        .maxConcurrent(4).minConcurrent(4).build();
    assertEquals(4, pinned.minConcurrent());
    assertEquals(4, pinned.initialConcurrent(), "0 starts at maxConcurrent");
    refused("initialConcurrent", "9", () -> BulkheadConfig.builder("pool").adaptive(Bulkhead.Adaptive.AIMD)
        .maxConcurrent(8).minConcurrent(2).initialConcurrent(9).build());
    refused("initialConcurrent", "1", () -> BulkheadConfig.builder("pool").adaptive(Bulkhead.Adaptive.AIMD)
        .maxConcurrent(8).minConcurrent(2).initialConcurrent(1).build());

    StaleIfErrorConfig freshAsLongAsKept = StaleIfErrorConfig.builder("C.m").maxAge("1m").fresh("1m").build();
    assertEquals(Duration.ofMinutes(1), freshAsLongAsKept.fresh());
    refused("fresh", "61s", () -> StaleIfErrorConfig.builder("C.m").maxAge("1m").fresh("61s").build());

    assertEquals(Optional.of(Duration.ofMillis(100)),
        RetryConfig.builder("C.m").delay("100ms").maxDuration("100ms").build().maxDuration());

    RateLimitConfig floorAtRate = RateLimitConfig.builder("api").permits(10).adaptive(true).minPermits(10).build();
    assertEquals(10.0, floorAtRate.minPermits());
    refused("minPermits", "11", () -> RateLimitConfig.builder("api").permits(10).minPermits(11).build());
  }

  @Test
  void aFixedBulkheadIgnoresTheAdaptiveBoundsAndAnAdaptiveOneChecksThem() {
    // Lowering a fixed bulkhead's limit below a stale minConcurrent must not need restating it.
    BulkheadConfig fixed = BulkheadConfig.builder("pool").maxConcurrent(3).minConcurrent(5).initialConcurrent(7).build();
    assertEquals(3, fixed.maxConcurrent());
    assertEquals(3, fixed.initialConcurrent());

    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> BulkheadConfig.builder("pool").adaptive(Bulkhead.Adaptive.AIMD).maxConcurrent(3).minConcurrent(5).build());
    assertEquals("minConcurrent", refused.attribute());
    assertTrue(refused.getMessage().contains("maxConcurrent (3)"), refused.getMessage());
  }

  @Test
  void aTimeWindowNeedsANanosecondPerBucketButACountWindowDoesNot() {
    CircuitBreakerConfig tight = CircuitBreakerConfig.builder("api").failureRate(0.5)
        .window(Duration.ofNanos(10)).windowBuckets(10).build();
    assertEquals(Duration.ofNanos(10), tight.window());
    refused("windowBuckets", "11", () -> CircuitBreakerConfig.builder("api").failureRate(0.5)
        .window(Duration.ofNanos(10)).windowBuckets(11).build());
    // A count window never divides time, so a short time window beside it is no error.
    CircuitBreakerConfig counted = CircuitBreakerConfig.builder("api").failureRate(0.5).windowCalls(20)
        .window(Duration.ofNanos(5)).windowBuckets(10).build();
    assertEquals(20, counted.windowCalls());
  }

  @Test
  void onlyARateOrASlowCallJudgementMakesABreakerWindowed() {
    CircuitBreakerConfig classic = CircuitBreakerConfig.builder("api").build();
    assertFalse(classic.windowed());
    assertFalse(classic.judgesSlowCalls());
    // In classic mode windowCalls is not read, so a value below minimumCalls is no error.
    assertEquals(5, CircuitBreakerConfig.builder("api").windowCalls(5).minimumCalls(20).build().windowCalls());

    assertTrue(CircuitBreakerConfig.builder("api").failureRate(0.5).build().windowed());
    CircuitBreakerConfig slow = CircuitBreakerConfig.builder("api").slowCall(Duration.ofMillis(200)).build();
    assertTrue(slow.judgesSlowCalls());
    assertTrue(slow.windowed());
    assertEquals(Duration.ofMillis(200), slow.slowCall());
    assertEquals(Duration.ZERO, CircuitBreakerConfig.builder("api").slowCall("200ms").slowCall((Duration) null).build().slowCall(),
        "null clears it");
    refused("windowCalls", "5", () -> CircuitBreakerConfig.builder("api").slowCall("1s").windowCalls(5).minimumCalls(20).build());
  }

  @Test
  void aRetryWithoutMaxDurationHasNoLimit() {
    assertEquals(Optional.empty(), RetryConfig.builder("C.m").maxDuration("5s").maxDuration((Duration) null).build().maxDuration());
    assertEquals(Optional.of(Duration.ofSeconds(5)), RetryConfig.builder("C.m").maxDuration(Duration.ofSeconds(5)).build().maxDuration());
    refused("maxDuration", "0ms", () -> RetryConfig.builder("C.m").maxDuration(Duration.ZERO));
  }

  @Test
  void aRefusedDurationShowsANegativeValueAsGivenAndZeroAsZero() {
    ConfigurationException negative = assertThrows(ConfigurationException.class,
        () -> TimeoutConfig.builder("C.m").duration(Duration.ofSeconds(-1)));
    assertEquals("PT-1S", negative.value());
    assertEquals("a duration greater than zero", negative.accepted());
    ConfigurationException zero = assertThrows(ConfigurationException.class,
        () -> TimeoutConfig.builder("C.m").duration(Duration.ZERO));
    assertEquals("0ms", zero.value());
    ConfigurationException negativeWait = assertThrows(ConfigurationException.class,
        () -> HedgeConfig.builder("C.m").delay(Duration.ofMillis(-5)));
    assertEquals("PT-0.005S", negativeWait.value());
    assertEquals("a duration of zero or more", negativeWait.accepted());
  }

  @Test
  void aBooleanFromTextIsTrueOrFalseInAnyCaseAndNothingElse() {
    assertTrue(RateLimitConfig.builder("api").permits(10).setText("adaptive", "TRUE").build().adaptive());
    assertFalse(RateLimitConfig.builder("api").permits(10).adaptive(true).setText("adaptive", " False ").build().adaptive());
    refused("adaptive", "yes", () -> RateLimitConfig.builder("api").setText("adaptive", "yes"));
  }

  @Test
  void aBudgetNameIsEmptyOrLettersDigitsAndDotUnderscoreDashColon() {
    assertEquals("", RetryConfig.builder("C.m").budget("payments").budget("").build().budget());
    assertEquals("pay.v2_eu-1:a", RetryConfig.builder("C.m").budget("pay.v2_eu-1:a").build().budget());
    assertEquals("pay.v2", HedgeConfig.builder("C.m").budget("pay.v2").build().budget());
    refused("budget", "pay ments", () -> RetryConfig.builder("C.m").budget("pay ments"));
    refused("budget", "null", () -> HedgeConfig.builder("C.m").budget(null));
  }

  @Test
  void everyTypedSetterKeepsItsValueThroughAChain() {
    CircuitBreakerConfig breaker = CircuitBreakerConfig.builder("api")
        .window("2m").backend("redis-eu").maxKeys(50).failureRate(0.5).build();
    assertEquals(Duration.ofMinutes(2), breaker.window());
    assertEquals("redis-eu", breaker.backend());
    assertEquals(50, breaker.maxKeys());

    RateLimitConfig limiter = RateLimitConfig.builder("api").permits(10)
        .maxKeys(7).backend("redis").decrease(0.25).increase(2).build();
    assertEquals(7, limiter.maxKeys());
    assertEquals("redis", limiter.backend());
    assertEquals(0.25, limiter.decrease());
    refused("backend", "red is", () -> RateLimitConfig.builder("api").backend("red is"));

    RetryBudgetConfig budget = RetryBudgetConfig.builder("b")
        .minRetriesPerSecond(3).ttl("20s").percentCanRetry(0.1).build();
    assertEquals(3.0, budget.minRetriesPerSecond());
    assertEquals(Duration.ofSeconds(20), budget.ttl());

    BulkheadConfig bulkhead = BulkheadConfig.builder("pool").defaultShare(0.8).sheddableShare(0.5).build();
    assertEquals(0.8, bulkhead.defaultShare());
    assertEquals(0.5, bulkhead.sheddableShare());

    StaleIfErrorConfig stale = StaleIfErrorConfig.builder("C.m")
        .maxAge(Duration.ofMinutes(10)).fresh("5s").maxEntries(3).key("{id}")
        .on(IOException.class).ignore(UncheckedIOException.class).build();
    assertEquals(Duration.ofMinutes(10), stale.maxAge());
    assertEquals(Duration.ofSeconds(5), stale.fresh());
    assertEquals(3, stale.maxEntries());
    assertEquals("{id}", stale.key());
    assertEquals(List.of(IOException.class), stale.on());
    assertEquals(List.of(UncheckedIOException.class), stale.ignore());
    assertEquals(Duration.ofSeconds(2),
        StaleIfErrorConfig.builder("C.m").fresh(Duration.ofSeconds(2)).maxAge("1m").build().fresh());
    refused("key", "null", () -> StaleIfErrorConfig.builder("C.m").key(null));

    HedgeConfig hedge = HedgeConfig.builder("C.m").delay(Duration.ofMillis(50)).ignore(TimeoutException.class).maxHedges(2).build();
    assertEquals(Duration.ofMillis(50), hedge.delay());
    assertEquals(List.of(TimeoutException.class), hedge.ignore());

    assertEquals(Duration.ofSeconds(2), TimeoutConfig.builder("C.m").duration(Duration.ofSeconds(2)).mode(dev.brace.Timeout.Mode.INTERRUPT).build().duration());
  }

  @Test
  void staleResultsAnswerWithoutACallOnlyWhileFreshIsSet() {
    assertFalse(StaleIfErrorConfig.builder("C.m").build().answersWhileFresh(), "fresh defaults to zero: every call calls");
    assertTrue(StaleIfErrorConfig.builder("C.m").maxAge("1m").fresh("1ms").build().answersWhileFresh());
    assertEquals("", StaleIfErrorConfig.builder("C.m").build().key(), "the default key is every argument");
  }

  @Test
  void theEffectiveValuesNameEveryAttributeOnceAndNeverTheInstanceName() {
    for (Kind kind : Kind.values()) {
      List<String> attributes = List.copyOf(buildable(kind).build().values().keySet());
      assertFalse(attributes.contains("name"), kind + ": " + attributes);
      assertFalse(attributes.contains("method"), kind + ": " + attributes);
      assertEquals(attributes.stream().distinct().collect(Collectors.toList()), attributes, kind.toString());
    }
  }

  @Test
  void kindsDescribeTheirAnnotationConfigTypeScopeAndKeying() {
    assertEquals(
        List.of(Kind.FALLBACK, Kind.STALEIFERROR, Kind.RETRY, Kind.HEDGE, Kind.CIRCUITBREAKER, Kind.RATELIMIT,
            Kind.BULKHEAD, Kind.TIMEOUT),
        Kind.annotated(), "every kind but the budget, in call order");
    for (Kind kind : Kind.values()) {
      assertInstanceOf(kind.configType(), buildable(kind).build(), kind.toString());
    }
    assertEquals(List.of(Kind.CIRCUITBREAKER, Kind.RATELIMIT),
        Arrays.stream(Kind.values()).filter(Kind::isKeyed).collect(Collectors.toList()));
    assertEquals(List.of(Kind.CIRCUITBREAKER, Kind.RATELIMIT, Kind.BULKHEAD),
        Arrays.stream(Kind.values()).filter(kind -> kind.scope() == Kind.Scope.SYSTEM).collect(Collectors.toList()));
    assertEquals(Kind.Scope.NAMED, Kind.RETRYBUDGET.scope());
    assertEquals(Kind.Scope.CALL, Kind.RETRY.scope());
  }

  /** A builder of the kind with its required attributes set. */
  private static ConfigBuilder<?> buildable(Kind kind) {
    ConfigBuilder<?> builder = kind.builder("n");
    if (kind == Kind.RATELIMIT) {
      builder.setText("permits", "5");
    } else if (kind == Kind.TIMEOUT) {
      builder.setText("value", "1s");
    }
    return builder;
  }

  private static void refused(String attribute, String value, Executable setting) {
    ConfigurationException refused = assertThrows(ConfigurationException.class, setting);
    assertEquals(attribute, refused.attribute(), refused.getMessage());
    assertEquals(value, String.valueOf(refused.value()), refused.getMessage());
    assertTrue(refused.getMessage().contains(attribute), refused.getMessage());
  }
}
