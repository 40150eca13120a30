package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input for what the second milestone added — hedging, stale answers, slow calls, adaptive
 * bulkheads and limiters, criticality shares, {@code @NotIdempotent}, live reconfiguration — the
 * way {@link BadInputTest} does it for the first: every bad value is a tagged error naming the
 * culprit (the variable or property, the instance, the attribute, what is accepted), and afterwards
 * a good call succeeds, no permit is held, no breaker is stuck and nothing was half applied.
 *
 * <p>Configuration reaches the registry only through {@code Registry.builder().environment(…)
 * .systemProperties(…)} and {@code reconfigure(…)}, never through the process's own environment.
 */
class NewFeaturesBadInputTest {

  /** A delegate that answers, fails, or blocks until released, counting its calls. */
  static final class Scripted implements Tail {
    volatile boolean fail;
    volatile CountDownLatch entered;
    volatile CountDownLatch release;
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String read(String id) throws IOException {
      calls.incrementAndGet();
      if (fail) {
        throw new IOException("down");
      }
      return "read " + id;
    }

    @Override
    public String write(String id) throws IOException {
      calls.incrementAndGet();
      CountDownLatch gate = release;
      if (gate != null) {
        entered.countDown();
        try {
          if (!gate.await(10, TimeUnit.SECONDS)) {
            throw new IOException("never released");
          }
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", interrupted);
        }
      }
      if (fail) {
        throw new ConnectException("refused");
      }
      return "wrote " + id;
    }
  }

  /** One setting of one instance of {@link Tail} with a value its builder refuses. */
  record Bad(Kind kind, String name, String attribute, String value) {
    /** {@code BRACE_<KIND>_<NAME>_<PROPERTY>}, as configuration.md spells it. */
    String variable() {
      return "BRACE_" + kind.name() + "_" + name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_"
          + attribute.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
    }

    /** {@code brace.<kind>.<name>.<property>}, as configuration.md spells it. */
    String property() {
      return "brace." + kind.key() + "." + name + "." + attribute.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
      return kind.key() + " " + name + " " + attribute + "=" + (value.isEmpty() ? "(empty)" : value);
    }
  }

  private static final String HEDGE = "Tail.read";
  private static final String STALE = "Tail.read";
  private static final String API = "tail-api";
  /** Past what a {@code long} of nanoseconds holds (about 292 years), yet a well-formed duration. */
  private static final String TOO_LONG = "9999999999999999h";

  static Stream<Bad> badSettings() {
    return Stream.of(
        // @Hedge(delay = "50ms", maxHedges = 2)
        new Bad(Kind.HEDGE, HEDGE, "delay", "-5ms"),
        new Bad(Kind.HEDGE, HEDGE, "delay", "soon"),
        new Bad(Kind.HEDGE, HEDGE, "delay", ""),
        new Bad(Kind.HEDGE, HEDGE, "delay", TOO_LONG),
        new Bad(Kind.HEDGE, HEDGE, "maxHedges", "0"),
        new Bad(Kind.HEDGE, HEDGE, "maxHedges", "-1"),
        new Bad(Kind.HEDGE, HEDGE, "maxHedges", "11"),
        new Bad(Kind.HEDGE, HEDGE, "maxHedges", "two"),
        new Bad(Kind.HEDGE, HEDGE, "maxHedges", ""),
        new Bad(Kind.HEDGE, HEDGE, "maxHedges", "99999999999"),
        new Bad(Kind.HEDGE, HEDGE, "budget", "tail budget"),
        // @StaleIfError(maxAge = "1m")
        new Bad(Kind.STALEIFERROR, STALE, "maxAge", "0ms"),
        new Bad(Kind.STALEIFERROR, STALE, "maxAge", "-1s"),
        new Bad(Kind.STALEIFERROR, STALE, "maxAge", "forever"),
        new Bad(Kind.STALEIFERROR, STALE, "maxAge", ""),
        new Bad(Kind.STALEIFERROR, STALE, "maxAge", TOO_LONG),
        new Bad(Kind.STALEIFERROR, STALE, "fresh", "-1s"),
        new Bad(Kind.STALEIFERROR, STALE, "fresh", "2m"),
        new Bad(Kind.STALEIFERROR, STALE, "maxEntries", "0"),
        new Bad(Kind.STALEIFERROR, STALE, "maxEntries", "-3"),
        new Bad(Kind.STALEIFERROR, STALE, "maxEntries", "many"),
        // @CircuitBreaker(slowCall = "1s", slowCallRate = 0.5, windowCalls = 20, minimumCalls = 10)
        new Bad(Kind.CIRCUITBREAKER, API, "slowCall", "-1s"),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCall", "0ms"),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCall", "slow"),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCall", TOO_LONG),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCallRate", "0"),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCallRate", "-0.1"),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCallRate", "1.5"),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCallRate", "NaN"),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCallRate", "half"),
        new Bad(Kind.CIRCUITBREAKER, API, "slowCallRate", ""),
        new Bad(Kind.CIRCUITBREAKER, API, "windowCalls", "5"),
        // @Bulkhead(maxConcurrent = 4, adaptive = AIMD, minConcurrent = 2, initialConcurrent = 3)
        new Bad(Kind.BULKHEAD, API, "adaptive", "fast"),
        new Bad(Kind.BULKHEAD, API, "adaptive", ""),
        new Bad(Kind.BULKHEAD, API, "minConcurrent", "0"),
        new Bad(Kind.BULKHEAD, API, "minConcurrent", "5"),
        new Bad(Kind.BULKHEAD, API, "initialConcurrent", "-1"),
        new Bad(Kind.BULKHEAD, API, "initialConcurrent", "1"),
        new Bad(Kind.BULKHEAD, API, "initialConcurrent", "9"),
        new Bad(Kind.BULKHEAD, API, "defaultShare", "0"),
        new Bad(Kind.BULKHEAD, API, "defaultShare", "1.01"),
        new Bad(Kind.BULKHEAD, API, "defaultShare", "-1"),
        new Bad(Kind.BULKHEAD, API, "defaultShare", "NaN"),
        new Bad(Kind.BULKHEAD, API, "defaultShare", "most"),
        new Bad(Kind.BULKHEAD, API, "sheddableShare", "0"),
        new Bad(Kind.BULKHEAD, API, "sheddableShare", "2"),
        new Bad(Kind.BULKHEAD, API, "sheddableShare", "Infinity"),
        // @RateLimit(permits = 1000, adaptive = true)
        new Bad(Kind.RATELIMIT, API, "adaptive", "yes"),
        new Bad(Kind.RATELIMIT, API, "minPermits", "-1"),
        new Bad(Kind.RATELIMIT, API, "minPermits", "1001"),
        new Bad(Kind.RATELIMIT, API, "minPermits", "few"),
        new Bad(Kind.RATELIMIT, API, "decrease", "0"),
        new Bad(Kind.RATELIMIT, API, "decrease", "1"),
        new Bad(Kind.RATELIMIT, API, "decrease", "-0.5"),
        new Bad(Kind.RATELIMIT, API, "decrease", "NaN"),
        new Bad(Kind.RATELIMIT, API, "increase", "-1"),
        new Bad(Kind.RATELIMIT, API, "increase", "NaN"),
        new Bad(Kind.RATELIMIT, API, "increase", "Infinity"),
        new Bad(Kind.RATELIMIT, API, "increase", "lots"));
  }

  static Stream<Arguments> badVariablesAndProperties() {
    return badSettings().flatMap(bad -> Stream.of(Arguments.of(bad, true), Arguments.of(bad, false)));
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("badVariablesAndProperties")
  void aBadValueOfANewKeyNamesItsKeyTheInstanceAndWhatIsAccepted(Bad bad, boolean asVariable) throws Exception {
    String key = asVariable ? bad.variable() : bad.property();
    Registry registry = Registry.builder()
        .strictConfiguration() // every key below must address a real instance and attribute: no typo hides a case
        .environment(asVariable ? Map.of(key, bad.value()) : Map.of())
        .systemProperties(asVariable ? Map.of() : Map.of(key, bad.value()))
        .build();
    Scripted delegate = new Scripted();

    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> ResilientTail.wrap(delegate, registry));

    String message = refused.getMessage();
    assertEquals("[brace:invalid-value]", refused.tag(), message);
    assertTrue(message.startsWith("[brace:invalid-value] " + key + "=" + bad.value() + ": "), message);
    assertTrue(message.contains(bad.kind().description() + " '" + bad.name() + "'"), message);
    assertTrue(message.contains(bad.attribute() + " = "), message);
    assertTrue(message.contains("; expected "), message);
    ConfigurationException cause = assertInstanceOf(ConfigurationException.class, refused.getCause(), message);
    assertEquals(bad.attribute(), cause.attribute(), message);
    assertNotNull(cause.accepted(), message);
    assertEquals(0, delegate.calls.get(), "nothing was called");
    if (asVariable) {
      System.out.println("[reliability] bad-new-key " + bad + " -> " + message);
    }

    // Nothing half applied: once the bad key is gone, the same registry wraps the client, calls
    // it, and every instance it made before the refusal is as fresh as the others.
    registry.reconfigure(Map.of(), Map.of());
    assertUsable(ResilientTail.wrap(delegate, registry), delegate, registry);
  }

  /** A good read and a good write, and afterwards no permit held and the breaker closed. */
  private static void assertUsable(Tail tail, Scripted delegate, Registry registry) throws IOException {
    delegate.fail = false;
    assertEquals("read a", tail.read("a"));
    assertEquals("wrote b", tail.write("b"));
    assertEquals(0, registry.bulkhead(API).inFlight(), "no permit held");
    assertEquals(registry.bulkhead(API).limit(), registry.bulkhead(API).available(), "every permit free");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker(API).state());
  }

  /** A programmatic setter with a bad value; the refusal names the attribute and the value. */
  record BadSetter(String label, String attribute, String value, Executable set) {
    @Override
    public String toString() {
      return label;
    }
  }

  static Stream<BadSetter> badSetters() {
    return Stream.of(
        new BadSetter("HedgeConfig delay(\"-5ms\")", "delay", "-5ms", () -> HedgeConfig.builder(HEDGE).delay("-5ms")),
        new BadSetter("HedgeConfig delay(-1ns)", "delay", "PT-0.000000001S", () -> HedgeConfig.builder(HEDGE).delay(Duration.ofNanos(-1))),
        new BadSetter("HedgeConfig delay(null)", "delay", null, () -> HedgeConfig.builder(HEDGE).delay((Duration) null)),
        new BadSetter("HedgeConfig delay(too long)", "delay", TOO_LONG, () -> HedgeConfig.builder(HEDGE).delay(TOO_LONG)),
        new BadSetter("HedgeConfig maxHedges(0)", "maxHedges", "0", () -> HedgeConfig.builder(HEDGE).maxHedges(0)),
        new BadSetter("HedgeConfig maxHedges(11)", "maxHedges", "11", () -> HedgeConfig.builder(HEDGE).maxHedges(11)),
        new BadSetter("HedgeConfig budget(\"a b\")", "budget", "a b", () -> HedgeConfig.builder(HEDGE).budget("a b")),
        new BadSetter("HedgeConfig budget(null)", "budget", null, () -> HedgeConfig.builder(HEDGE).budget(null)),
        new BadSetter("StaleIfErrorConfig maxAge(0)", "maxAge", "0ms", () -> StaleIfErrorConfig.builder(STALE).maxAge(Duration.ZERO)),
        new BadSetter("StaleIfErrorConfig maxAge(\"\")", "maxAge", "", () -> StaleIfErrorConfig.builder(STALE).maxAge("")),
        new BadSetter("StaleIfErrorConfig fresh(-1s)", "fresh", "PT-1S", () -> StaleIfErrorConfig.builder(STALE).fresh(Duration.ofSeconds(-1))),
        new BadSetter("StaleIfErrorConfig fresh > maxAge", "fresh", "2m",
            () -> StaleIfErrorConfig.builder(STALE).maxAge("1m").fresh("2m").build()),
        new BadSetter("StaleIfErrorConfig maxEntries(0)", "maxEntries", "0", () -> StaleIfErrorConfig.builder(STALE).maxEntries(0)),
        new BadSetter("StaleIfErrorConfig key(null)", "key", null, () -> StaleIfErrorConfig.builder(STALE).key(null)),
        new BadSetter("CircuitBreakerConfig slowCall(-1ms)", "slowCall", "PT-0.001S",
            () -> CircuitBreakerConfig.builder(API).slowCall(Duration.ofMillis(-1))),
        new BadSetter("CircuitBreakerConfig slowCall(\"0ms\")", "slowCall", "0ms", () -> CircuitBreakerConfig.builder(API).slowCall("0ms")),
        new BadSetter("CircuitBreakerConfig slowCallRate(0)", "slowCallRate", "0.0", () -> CircuitBreakerConfig.builder(API).slowCallRate(0)),
        new BadSetter("CircuitBreakerConfig slowCallRate(NaN)", "slowCallRate", "NaN",
            () -> CircuitBreakerConfig.builder(API).slowCallRate(Double.NaN)),
        new BadSetter("CircuitBreakerConfig slowCallRate(1.0001)", "slowCallRate", "1.0001",
            () -> CircuitBreakerConfig.builder(API).slowCallRate(1.0001)),
        new BadSetter("CircuitBreakerConfig windowCalls < minimumCalls with slowCall", "windowCalls", "5",
            () -> CircuitBreakerConfig.builder(API).slowCall("1s").minimumCalls(10).windowCalls(5).build()),
        new BadSetter("BulkheadConfig adaptive(null)", "adaptive", null, () -> BulkheadConfig.builder(API).adaptive(null)),
        new BadSetter("BulkheadConfig minConcurrent(0)", "minConcurrent", "0", () -> BulkheadConfig.builder(API).minConcurrent(0)),
        new BadSetter("BulkheadConfig initialConcurrent(-1)", "initialConcurrent", "-1",
            () -> BulkheadConfig.builder(API).initialConcurrent(-1)),
        new BadSetter("BulkheadConfig minConcurrent > maxConcurrent", "minConcurrent", "5",
            () -> BulkheadConfig.builder(API).adaptive(Bulkhead.Adaptive.VEGAS).maxConcurrent(4).minConcurrent(5).build()),
        new BadSetter("BulkheadConfig initialConcurrent > maxConcurrent", "initialConcurrent", "9",
            () -> BulkheadConfig.builder(API).adaptive(Bulkhead.Adaptive.GRADIENT2).maxConcurrent(4).initialConcurrent(9).build()),
        new BadSetter("BulkheadConfig defaultShare(0)", "defaultShare", "0.0", () -> BulkheadConfig.builder(API).defaultShare(0)),
        new BadSetter("BulkheadConfig defaultShare(1.5)", "defaultShare", "1.5", () -> BulkheadConfig.builder(API).defaultShare(1.5)),
        new BadSetter("BulkheadConfig sheddableShare(NaN)", "sheddableShare", "NaN",
            () -> BulkheadConfig.builder(API).sheddableShare(Double.NaN)),
        new BadSetter("BulkheadConfig sheddableShare(-0.5)", "sheddableShare", "-0.5",
            () -> BulkheadConfig.builder(API).sheddableShare(-0.5)),
        new BadSetter("RateLimitConfig minPermits(-1)", "minPermits", "-1", () -> RateLimitConfig.builder(API).minPermits(-1)),
        new BadSetter("RateLimitConfig minPermits > permits", "minPermits", "11",
            () -> RateLimitConfig.builder(API).permits(10).adaptive(true).minPermits(11).build()),
        new BadSetter("RateLimitConfig decrease(1)", "decrease", "1.0", () -> RateLimitConfig.builder(API).decrease(1)),
        new BadSetter("RateLimitConfig decrease(0)", "decrease", "0.0", () -> RateLimitConfig.builder(API).decrease(0)),
        new BadSetter("RateLimitConfig increase(-1)", "increase", "-1.0", () -> RateLimitConfig.builder(API).increase(-1)),
        new BadSetter("RateLimitConfig increase(Infinity)", "increase", "Infinity",
            () -> RateLimitConfig.builder(API).increase(Double.POSITIVE_INFINITY)),
        new BadSetter("RateLimitConfig adaptive with a key", "adaptive", "true",
            () -> RateLimitConfig.builder(API).permits(10).adaptive(true).key("{id}").build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badSetters")
  void aBadProgrammaticValueNamesTheAttributeAndTheValue(BadSetter bad) {
    ConfigurationException refused = assertThrows(ConfigurationException.class, bad.set());

    String message = refused.getMessage();
    assertEquals("[brace:invalid-value]", refused.tag(), message);
    assertEquals(bad.attribute(), refused.attribute(), message);
    assertEquals(bad.value(), refused.value(), message);
    assertTrue(message.contains(bad.attribute() + " = " + (bad.value() == null ? "null" : "\"" + bad.value() + "\"")), message);
    assertTrue(message.contains("; expected "), message);
    System.out.println("[reliability] bad-setter " + bad + " -> " + message);
  }

  @Test
  void aBadProgrammaticValueInRegistryBuilderFailsAtOnceAndTheRegistryIsNeverBuilt() throws IOException {
    Registry.Builder builder = Registry.builder().environment(Map.of()).systemProperties(Map.of());
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> builder.hedge(HEDGE, h -> h.maxHedges(0)));
    assertEquals("maxHedges", refused.attribute());

    // A cross-attribute check can only run once the layers are laid: it fails when the wrapper is
    // created, naming the attribute and the instance; the builder's other settings stay good.
    Registry registry = builder.bulkhead(API, b -> b.minConcurrent(6)).build();
    Scripted delegate = new Scripted();
    ConfigurationException crossed = assertThrows(ConfigurationException.class, () -> ResilientTail.wrap(delegate, registry));
    assertTrue(crossed.getMessage().contains("bulkhead 'tail-api': minConcurrent = \"6\""), crossed.getMessage());
    assertTrue(crossed.getMessage().contains("maxConcurrent (4)"), crossed.getMessage());

    assertEquals(0, delegate.calls.get());

    // A variable outranks the programmatic value: with it, the same registry wraps the client.
    registry.reconfigure(Map.of("BRACE_BULKHEAD_TAIL_API_MIN_CONCURRENT", "2"), Map.of());
    assertUsable(ResilientTail.wrap(delegate, registry), delegate, registry);
  }

  private static Registry plainRegistry() {
    return Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
  }

  @Test
  void aReconfigurationWithBadValuesIsRefusedWholeNamesEveryCulpritAndLeavesCallsInFlightAlone() throws Exception {
    Registry registry = plainRegistry();
    Scripted delegate = new Scripted();
    Tail tail = ResilientTail.wrap(delegate, registry);
    assertEquals("read a", tail.read("a"));
    List<Description.Instance> before = registry.describe().instances();

    // A write in flight, holding a bulkhead permit, while the reconfiguration is refused.
    delegate.entered = new CountDownLatch(1);
    delegate.release = new CountDownLatch(1);
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> {
      try {
        return tail.write("in-flight");
      } catch (IOException failed) {
        throw new AssertionError(failed);
      }
    });
    assertTrue(delegate.entered.await(10, TimeUnit.SECONDS), "the write reached the delegate");
    assertEquals(1, registry.bulkhead(API).inFlight());

    // Culprits in every kind, two of them in one call, and a good value among them.
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("BRACE_BULKHEAD_TAIL_API_MAX_CONCURRENT", "6");
    environment.put("BRACE_HEDGE_TAIL_READ_MAX_HEDGES", "0");
    environment.put("BRACE_STALEIFERROR_TAIL_READ_FRESH", "2m");
    environment.put("BRACE_CIRCUITBREAKER_TAIL_API_SLOW_CALL_RATE", "2");
    environment.put("BRACE_RATELIMIT_TAIL_API_DECREASE", "1");
    Map<String, String> properties = Map.of("brace.bulkhead.tail-api.default-share", "0");
    ConfigurationException refused =
        assertThrows(ConfigurationException.class, () -> registry.reconfigure(environment, properties));

    String message = refused.getMessage();
    System.out.println("[reliability] bad-reconfiguration -> " + message.replace("\n", " | "));
    assertEquals("[brace:reconfiguration-refused]", refused.tag(), message);
    for (String culprit : List.of("BRACE_HEDGE_TAIL_READ_MAX_HEDGES=0", "BRACE_STALEIFERROR_TAIL_READ_FRESH=2m",
        "BRACE_CIRCUITBREAKER_TAIL_API_SLOW_CALL_RATE=2", "BRACE_RATELIMIT_TAIL_API_DECREASE=1",
        "brace.bulkhead.tail-api.default-share=0")) {
      assertTrue(message.contains("\n  [brace:invalid-value] " + culprit + ": "), culprit + " in " + message);
    }
    assertFalse(message.contains("MAX_CONCURRENT"), "the good value is no culprit: " + message);
    assertEquals(before, registry.describe().instances(), "nothing changed, the good value included");
    assertEquals("4", registry.settings("bulkhead", API).get("maxConcurrent"));

    delegate.release.countDown();
    assertEquals("wrote in-flight", inFlight.get(10, TimeUnit.SECONDS));
    delegate.release = null;
    assertUsable(tail, delegate, registry);

    // What cannot change live is refused the same way, and named.
    ConfigurationException notLive = assertThrows(ConfigurationException.class,
        () -> registry.reconfigure(Map.of("BRACE_BULKHEAD_TAIL_API_ADAPTIVE", "vegas"), Map.of()));
    assertTrue(notLive.getMessage().contains("[brace:not-live] bulkhead 'tail-api'"), notLive.getMessage());
    assertEquals(before, registry.describe().instances());

    // A later good reconfiguration applies whole, and describe() names the layer of each value.
    Map<String, String> good = Map.of(
        "BRACE_BULKHEAD_TAIL_API_MAX_CONCURRENT", "6",
        "BRACE_HEDGE_TAIL_READ_MAX_HEDGES", "3",
        "BRACE_STALEIFERROR_TAIL_READ_FRESH", "10s",
        "BRACE_CIRCUITBREAKER_TAIL_API_SLOW_CALL_RATE", "0.8",
        "BRACE_RATELIMIT_TAIL_API_DECREASE", "0.25");
    registry.reconfigure(good, Map.of("brace.bulkhead.tail-api.default-share", "0.7"));
    assertSetting(registry, Kind.BULKHEAD, API, "maxConcurrent", "6", "environment BRACE_BULKHEAD_TAIL_API_MAX_CONCURRENT");
    assertSetting(registry, Kind.BULKHEAD, API, "defaultShare", "0.7", "system property brace.bulkhead.tail-api.default-share");
    assertSetting(registry, Kind.HEDGE, HEDGE, "maxHedges", "3", "environment BRACE_HEDGE_TAIL_READ_MAX_HEDGES");
    assertSetting(registry, Kind.STALEIFERROR, STALE, "fresh", "10s", "environment BRACE_STALEIFERROR_TAIL_READ_FRESH");
    assertSetting(registry, Kind.CIRCUITBREAKER, API, "slowCallRate", "0.8", "environment BRACE_CIRCUITBREAKER_TAIL_API_SLOW_CALL_RATE");
    assertSetting(registry, Kind.RATELIMIT, API, "decrease", "0.25", "environment BRACE_RATELIMIT_TAIL_API_DECREASE");
    assertUsable(tail, delegate, registry);

    // And a refusal after it keeps the good configuration, not the first one.
    List<Description.Instance> applied = registry.describe().instances();
    assertThrows(ConfigurationException.class, () -> registry.reconfigure(Map.of("BRACE_HEDGE_TAIL_READ_DELAY", "-1ms"), Map.of()));
    assertEquals(applied, registry.describe().instances());
    assertSetting(registry, Kind.HEDGE, HEDGE, "maxHedges", "3", "environment BRACE_HEDGE_TAIL_READ_MAX_HEDGES");
  }

  private static void assertSetting(Registry registry, Kind kind, String name, String attribute, String value, String source) {
    Description.Setting setting = registry.describe(kind, name).setting(attribute).orElseThrow();
    assertEquals(value, setting.value(), kind + " " + name + " " + attribute);
    assertEquals(source, setting.source().toString(), kind + " " + name + " " + attribute);
  }

  @Test
  void aReconfigurationThatWouldRetryANotIdempotentCallIsRefused() throws Exception {
    Registry registry = Registry.builder()
        .retry("payments.charge", r -> r.maxAttempts(3).delay("0ms").on(IOException.class))
        .environment(Map.of("BRACE_RETRY_PAYMENTS_CHARGE_ENABLED", "false"))
        .systemProperties(Map.of())
        .build();
    AtomicInteger charges = new AtomicInteger();
    Stack<String> charge = Stack.<String>builder("payments.charge")
        .notIdempotent()
        .retry(r -> r.maxAttempts(3))
        .bulkhead("payments-api", b -> b.maxConcurrent(2))
        .build(registry);

    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> registry.reconfigure(Map.of("BRACE_RETRY_PAYMENTS_CHARGE_ENABLED", "true"), Map.of()));

    assertEquals("[brace:reconfiguration-refused]", refused.tag(), refused.getMessage());
    assertTrue(refused.getMessage().contains("[brace:not-idempotent-retry] stack 'payments.charge' is @NotIdempotent"), refused.getMessage());
    IOException failed = assertThrows(IOException.class, () -> charge.call(() -> {
      charges.incrementAndGet();
      throw new IOException("timed out after sending");
    }));
    assertEquals("timed out after sending", failed.getMessage());
    assertEquals(1, charges.get(), "the retry stayed off: charged once");
    assertEquals(0, registry.bulkhead("payments-api").inFlight());
    assertEquals("paid", charge.call(() -> "paid"));
  }

  @Test
  void configurationThatLetsOneAttemptUseUpTheRetrysMaxDurationIsRefusedAndNamesItsLayer() throws Exception {
    Registry registry = Registry.builder()
        .environment(Map.of("BRACE_TIMEOUT_QUOTES_LATEST_DURATION", "5s"))
        .systemProperties(Map.of())
        .build();
    Stack.Builder<String> quotes = Stack.<String>builder("quotes.latest")
        .retry(r -> r.maxDuration("2s"))
        .timeout(t -> t.duration("1s"));

    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> quotes.build(registry));

    assertEquals("[brace:max-duration-below-timeout]", refused.tag(), refused.getMessage());
    assertTrue(refused.getMessage().contains("timeout = 5s (environment BRACE_TIMEOUT_QUOTES_LATEST_DURATION)"), refused.getMessage());
    registry.reconfigure(Map.of("BRACE_TIMEOUT_QUOTES_LATEST_DURATION", "500ms"), Map.of());
    assertEquals("quote", quotes.build(registry).call(() -> "quote"));
    // Live, the same: a reconfiguration that would let one attempt use up the limit is refused.
    ConfigurationException live = assertThrows(ConfigurationException.class,
        () -> registry.reconfigure(Map.of("BRACE_RETRY_QUOTES_LATEST_MAX_DURATION", "200ms"), Map.of()));
    assertTrue(live.getMessage().contains("\n  [brace:max-duration-below-timeout] stack 'quotes.latest'"), live.getMessage());
    assertEquals("500ms", registry.settings("timeout", "quotes.latest").get("duration"));
  }

  /** A stack the processor would refuse at compile time, had it been annotations. */
  record Misuse(String label, Class<? extends Throwable> type, String tag, String text, Supplier<Stack<String>> build) {
    @Override
    public String toString() {
      return label;
    }
  }

  private static final Registry SHARED = plainRegistry();

  static Stream<Misuse> misuses() {
    return Stream.of(
        new Misuse("hedge on a call that is not idempotent", ConfigurationException.class, "[brace:not-idempotent-hedge]",
            "stack 'misuse.hedge' is @NotIdempotent",
            () -> Stack.<String>builder("misuse.hedge").notIdempotent().hedge(h -> h.delay("10ms")).build(SHARED)),
        new Misuse("retry on IOException of a call that is not idempotent", ConfigurationException.class,
            "[brace:not-idempotent-retry]", "java.io.IOException",
            () -> Stack.<String>builder("misuse.retry").notIdempotent().retry(r -> r.on(IOException.class)).build(SHARED)),
        new Misuse("retry on a result of a call that is not idempotent", ConfigurationException.class,
            "[brace:not-idempotent-retry]", "stack 'misuse.result' is @NotIdempotent",
            () -> Stack.<String>builder("misuse.result").notIdempotent()
                .retry(r -> r.on(ConnectException.class).onResult(result -> result == null)).build(SHARED)),
        new Misuse("two hedges", IllegalArgumentException.class, "[brace:stack-duplicate-part]", "two hedge parts",
            () -> Stack.<String>builder("misuse.hedges").hedge(h -> h.maxHedges(1)).hedge(h -> h.maxHedges(2)).build(SHARED)),
        new Misuse("two stale-if-error parts", IllegalArgumentException.class, "[brace:stack-duplicate-part]",
            "two stale-if-error parts",
            () -> Stack.<String>builder("misuse.stale").staleIfError(s -> s.maxAge("1m")).staleIfError(s -> s.maxAge("2m")).build(SHARED)),
        new Misuse("a criticality and nothing it applies to", IllegalStateException.class, "[brace:stack-empty]",
            "stack 'misuse.empty' has no part",
            () -> Stack.<String>builder("misuse.empty").criticality(dev.brace.Criticality.Level.CRITICAL).build(SHARED)),
        new Misuse("an adaptive limiter with a key", ConfigurationException.class, "[brace:invalid-value]",
            "rate limiter 'misuse-keyed-quota': adaptive = \"true\"",
            () -> Stack.<String>builder("misuse.quota")
                .rateLimit("misuse-keyed-quota", r -> r.permits(10).adaptive(true).key("{tenant}")).build(SHARED)),
        new Misuse("a retry whose maxDuration one timeout uses up", ConfigurationException.class,
            "[brace:max-duration-below-timeout]",
            "stack 'misuse.timed': its retry's maxDuration = 1s (annotation at stack 'misuse.timed') is shorter than its timeout = 2s",
            () -> Stack.<String>builder("misuse.timed").retry(r -> r.maxDuration("1s")).timeout(t -> t.duration("2s")).build(SHARED)),
        new Misuse("a retry whose maxDuration one wait for a permit uses up", ConfigurationException.class,
            "[brace:max-duration-below-wait]",
            "is shorter than its bulkhead's maxWait = 3s (annotation at stack 'misuse.waiting')",
            () -> Stack.<String>builder("misuse.waiting").retry(r -> r.maxDuration("2s"))
                .bulkhead("misuse-waiting", b -> b.maxWait("3s")).build(SHARED)),
        new Misuse("one adaptive bulkhead, two algorithms", ConfigurationException.class, "[brace:name-conflict]",
            "bulkhead 'misuse-pool' has adaptive = ",
            () -> {
              Stack.<String>builder("misuse.pool-a").bulkhead("misuse-pool", b -> b.adaptive(Bulkhead.Adaptive.AIMD)).build(SHARED);
              return Stack.<String>builder("misuse.pool-b").bulkhead("misuse-pool", b -> b.adaptive(Bulkhead.Adaptive.VEGAS)).build(SHARED);
            }),
        new Misuse("one bulkhead, two sheddable shares", ConfigurationException.class, "[brace:name-conflict]",
            "bulkhead 'misuse-shares' has sheddableShare = ",
            () -> {
              Stack.<String>builder("misuse.shares-a").bulkhead("misuse-shares", b -> b.sheddableShare(0.5)).build(SHARED);
              return Stack.<String>builder("misuse.shares-b").bulkhead("misuse-shares", b -> b.sheddableShare(0.3)).build(SHARED);
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("misuses")
  void misuseOnlyTheRegistryCanSeeIsRefusedWithItsDocumentedTag(Misuse misuse) throws Exception {
    Throwable refused = assertThrows(misuse.type(), misuse.build()::get);

    String message = refused.getMessage();
    assertTrue(message.startsWith(misuse.tag() + " "), message);
    assertTrue(message.contains(misuse.text()), message);
    System.out.println("[reliability] misuse " + misuse + " -> " + message);

    // The registry refused before it made anything of the call: a good stack on it works.
    Stack<String> good = Stack.<String>builder(misuse.label().replace(' ', '-') + ".good")
        .retry(r -> r.maxAttempts(2).delay("0ms"))
        .bulkhead("misuse-good", b -> b.maxConcurrent(2))
        .build(SHARED);
    assertEquals("ok", good.call(() -> "ok"));
    assertEquals(0, SHARED.bulkhead("misuse-good").inFlight());
  }
}
