package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.brace.runtime.Description.Layer;
import dev.brace.runtime.Description.Source;
import dev.brace.runtime.config.Kind;
import java.io.IOException;
import java.lang.ref.Reference;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@code registry.describe()}: every effective value with the layer that set it last, every call
 * with its patterns in order, as data and as a table.
 */
class DescriptionTest {

  /** A stack's parts are its call site's values: the lowest layer, as an annotation's are. */
  private static Stack<String> quotes(Registry registry) {
    return Stack.<String>builder("quotes.latest")
        .timeout(t -> t.duration("500ms"))
        .circuitBreaker("quotes-api", b -> b.failureThreshold(3).resetTimeout("10s"))
        .retry(r -> r.maxAttempts(4).on(IOException.class).budget("quotes-budget"))
        .fallback(failure -> "none")
        .build(registry);
  }

  private static Registry layered() {
    return Registry.builder()
        .timeSource(new ManualTimeSource())
        .retry("quotes.latest", r -> r.delay("5ms"))
        .circuitBreaker("quotes-api", b -> b.resetTimeout("20s"))
        .retryBudget("quotes-budget", b -> { })   // known to the registry, so its variable is no typo
        .environment(Map.of(
            "BRACE_CIRCUITBREAKER_QUOTES_API_RESET_TIMEOUT", "30s",
            "BRACE_CIRCUITBREAKER_QUOTES_API_SUCCESS_THRESHOLD", "2",
            "BRACE_RETRYBUDGET_QUOTES_BUDGET_PERCENT_CAN_RETRY", "0.5"))
        .systemProperties(Map.of("brace.circuitbreaker.quotes-api.success-threshold", "3"))
        .build();
  }

  @Test
  void eachSettingNamesTheHighestLayerThatSetIt() {
    Registry registry = layered();
    quotes(registry);

    Description.Instance breaker = registry.describe(Kind.CIRCUITBREAKER, "quotes-api");
    assertEquals(new Source(Layer.ANNOTATION, "stack 'quotes.latest'"), source(breaker, "failureThreshold"));
    assertEquals(new Source(Layer.ENVIRONMENT, "BRACE_CIRCUITBREAKER_QUOTES_API_RESET_TIMEOUT"), source(breaker, "resetTimeout"),
        "the variable wins over the programmatic 20s and the stack's 10s");
    assertEquals("30s", breaker.setting("resetTimeout").orElseThrow().value());
    assertEquals(new Source(Layer.SYSTEM_PROPERTY, "brace.circuitbreaker.quotes-api.success-threshold"), source(breaker, "successThreshold"),
        "the property wins over the variable");
    assertEquals("3", breaker.setting("successThreshold").orElseThrow().value());
    assertEquals(Source.DEFAULT, source(breaker, "windowBuckets"));
    assertEquals("{java.lang.Exception}", breaker.setting("on").orElseThrow().value());
    assertEquals(List.of("stack 'quotes.latest'"), breaker.sites());

    Description.Instance retry = registry.describe(Kind.RETRY, "quotes.latest");
    assertEquals(Source.PROGRAMMATIC, source(retry, "delay"));
    assertEquals("5ms", retry.setting("delay").orElseThrow().value());
    assertEquals("{java.io.IOException}", retry.setting("on").orElseThrow().value());
    assertEquals("none", retry.setting("maxDuration").orElseThrow().value(), "an unset maxDuration is no limit, not zero");

    Description.Instance timeout = registry.describe(Kind.TIMEOUT, "quotes.latest");
    assertEquals("500ms", timeout.setting("duration").orElseThrow().value(), "the timeout's value is configured as duration");

    Description.Instance budget = registry.describe(Kind.RETRYBUDGET, "quotes-budget");
    assertEquals(new Source(Layer.ENVIRONMENT, "BRACE_RETRYBUDGET_QUOTES_BUDGET_PERCENT_CAN_RETRY"), source(budget, "percentCanRetry"));
    assertEquals(List.of("stack 'quotes.latest'"), budget.sites());
  }

  @Test
  void everyCallListsItsPatternsOutermostFirstAndTheTableShowsEveryRow() {
    Registry registry = Registry.builder().timeSource(new ManualTimeSource()).environment(Map.of())
        .systemProperties(Map.of("brace.timeout.quotes.latest.enabled", "false")).build();
    quotes(registry);
    Stack.<String>builder("other").bulkhead("quotes-api", b -> b.maxConcurrent(2)).build(registry);

    Description description = registry.describe();

    Description.Call call = description.calls().get(1);
    assertEquals("quotes.latest", call.name());
    assertEquals(List.of(Kind.FALLBACK, Kind.RETRY, Kind.CIRCUITBREAKER, Kind.TIMEOUT),
        call.patterns().stream().map(Description.Pattern::kind).collect(Collectors.toList()));
    assertFalse(call.patterns().get(3).enabled(), "the timeout is switched off by its property");
    assertEquals(List.of("other", "quotes.latest"), description.calls().stream().map(Description.Call::name).collect(Collectors.toList()));
    assertEquals(List.of(Kind.FALLBACK, Kind.RETRY, Kind.CIRCUITBREAKER, Kind.BULKHEAD, Kind.RETRYBUDGET, Kind.DEADLINE, Kind.DEADLINE),
        description.instances().stream().map(Description.Instance::kind).collect(Collectors.toList()),
        "in call order, the budget and each call's deadline settings last; the switched-off timeout was never created");

    String table = description.toString();
    assertTrue(table.startsWith("Brace registry: 2 calls, 7 instances\n"), table);
    assertTrue(table.contains("quotes.latest  fallback → retry → circuitbreaker quotes-api → timeout (off)"), table);
    assertTrue(table.matches("(?s).*circuitbreaker quotes-api +failureThreshold +3 +annotation at stack 'quotes.latest'\n.*"), table);
    assertTrue(table.matches("(?s).*\n +resetTimeout +10s +annotation at stack 'quotes.latest'\n.*"), table);
    assertTrue(table.matches("(?s).*\n +windowBuckets +10 +default\n.*"), table);
    assertTrue(table.matches("(?s).*bulkhead quotes-api +maxConcurrent +2 +annotation at stack 'other'\n.*"), table);
  }

  @Test
  void aCallMarkedNotIdempotentSaysSo() {
    Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    Stack.<String>builder("payments.charge").notIdempotent().bulkhead("payments", b -> b.maxConcurrent(2)).build(registry);

    Description description = registry.describe();

    assertTrue(description.calls().get(0).notIdempotent());
    assertTrue(description.toString().contains("payments.charge  bulkhead payments  (not idempotent)"), description.toString());
  }

  @Test
  void theDescriptionOfOneCallHoldsItsInstancesOnly() {
    Registry registry = layered();
    quotes(registry);
    Stack.<String>builder("other").bulkhead("other-api", b -> b.maxConcurrent(2)).build(registry);

    Description one = registry.describe().call("quotes.latest").orElseThrow();

    assertEquals(1, one.calls().size());
    assertEquals(List.of("quotes.latest", "quotes.latest", "quotes-api", "quotes.latest", "quotes-budget"),
        one.instances().stream().map(Description.Instance::name).collect(Collectors.toList()));
    assertTrue(registry.describe().call("nothing").isEmpty());
  }

  @Test
  void anUnknownOrSwitchedOffInstanceIsRefusedWithATaggedMessage() {
    Registry registry = Registry.builder().environment(Map.of("BRACE_BULKHEAD_OFF_ENABLED", "false"))
        .systemProperties(Map.of()).build();
    Stack.<String>builder("s").bulkhead("off", b -> b.maxConcurrent(1)).retry(r -> r.maxAttempts(2)).build(registry);

    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> registry.describe(Kind.BULKHEAD, "nope"));
    assertTrue(unknown.getMessage().startsWith("[brace:unknown-instance] this registry has no bulkhead named 'nope'"), unknown.getMessage());
    IllegalArgumentException off = assertThrows(IllegalArgumentException.class, () -> registry.describe(Kind.BULKHEAD, "off"));
    assertTrue(off.getMessage().startsWith("[brace:switched-off] bulkhead 'off' is switched off"), off.getMessage());
    assertEquals("s", registry.describe(Kind.RETRY, "s").name());
  }

  @Test
  void aKeyedMemberIsDescribedByItsFamily() throws Exception {
    Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    Stack<String> keyed = Stack.<String>builder("k").circuitBreaker("hosts", b -> b.key("{host}")).build(registry);
    keyed.call("a.example", () -> "ok");

    assertEquals("hosts", registry.describe(Kind.CIRCUITBREAKER, "hosts[a.example]").name());
    assertEquals("\"{host}\"", registry.describe(Kind.CIRCUITBREAKER, "hosts").setting("key").orElseThrow().value());
  }

  @Test
  void switchedOffAsAWholeTheDescriptionSaysSo() {
    Registry registry = Registry.builder().environment(Map.of("BRACE_ENABLED", "false")).systemProperties(Map.of()).build();
    quotes(registry);

    Description description = registry.describe();

    assertFalse(description.enabled());
    assertTrue(description.instances().isEmpty());
    assertTrue(description.calls().get(0).patterns().stream().noneMatch(Description.Pattern::enabled));
    assertTrue(description.toString().contains("(switched off: every call passes straight through)"), description.toString());
  }

  @Test
  void eachCallIsLoggedOnceAtDebugWhenFirstResolved() {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.brace");
    Level before = logger.getLevel();
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
    try {
      Registry registry = layered();
      quotes(registry);
      quotes(registry);

      List<String> lines = appender.list.stream().filter(event -> event.getLevel() == Level.DEBUG)
          .map(ILoggingEvent::getFormattedMessage).collect(Collectors.toList());
      assertEquals(1, lines.size(), lines.toString());
      assertTrue(lines.get(0).startsWith("Brace registry: 1 call, 5 instances\n"), lines.get(0));
      assertTrue(lines.get(0).contains("BRACE_CIRCUITBREAKER_QUOTES_API_RESET_TIMEOUT"), lines.get(0));
    } finally {
      logger.detachAppender(appender);
      logger.setLevel(before);
    }
  }

  @Test
  void aReconfigurationIsDescribedWithTheLayersThatNowSetEachValue() {
    Registry registry = layered();
    // Kept reachable through the reconfiguration: the registry holds wrappers weakly and resolves
    // again only those still alive; a collected stack's retry would keep its old settings.
    Stack<String> quotes = quotes(registry);

    registry.reconfigure(
        Map.of(
            "BRACE_CIRCUITBREAKER_QUOTES_API_RESET_TIMEOUT", "45s",
            "BRACE_CIRCUITBREAKER_QUOTES_API_SUCCESS_THRESHOLD", "2",
            "BRACE_RETRY_QUOTES_LATEST_MAX_ATTEMPTS", "6"),
        Map.of("brace.timeout.quotes.latest.enabled", "false"));

    Description.Instance breaker = registry.describe(Kind.CIRCUITBREAKER, "quotes-api");
    assertEquals("45s", breaker.setting("resetTimeout").orElseThrow().value());
    assertEquals(new Source(Layer.ENVIRONMENT, "BRACE_CIRCUITBREAKER_QUOTES_API_RESET_TIMEOUT"), source(breaker, "resetTimeout"));
    assertEquals("2", breaker.setting("successThreshold").orElseThrow().value(), "the property that said 3 is gone");
    assertEquals(new Source(Layer.ENVIRONMENT, "BRACE_CIRCUITBREAKER_QUOTES_API_SUCCESS_THRESHOLD"), source(breaker, "successThreshold"));
    assertEquals(new Source(Layer.ANNOTATION, "stack 'quotes.latest'"), source(breaker, "failureThreshold"));
    assertEquals(List.of("stack 'quotes.latest'"), breaker.sites());
    assertEquals("45s", registry.settings("circuitbreaker", "quotes-api").get("resetTimeout"), "describe and settings agree");

    Description.Instance retry = registry.describe(Kind.RETRY, "quotes.latest");
    assertEquals("6", retry.setting("maxAttempts").orElseThrow().value());
    assertEquals(new Source(Layer.ENVIRONMENT, "BRACE_RETRY_QUOTES_LATEST_MAX_ATTEMPTS"), source(retry, "maxAttempts"));
    assertEquals(Source.PROGRAMMATIC, source(retry, "delay"), "a reconfiguration keeps the programmatic layer");

    Description.Instance budget = registry.describe(Kind.RETRYBUDGET, "quotes-budget");
    assertEquals(Source.DEFAULT, source(budget, "percentCanRetry"), "its variable is gone");

    Description.Call call = registry.describe().call("quotes.latest").orElseThrow().calls().get(0);
    assertFalse(call.patterns().get(3).enabled(), "the timeout is switched off by the new property");
    assertTrue(call.patterns().get(2).enabled());
    Reference.reachabilityFence(quotes);
  }

  @Test
  void aRefusedReconfigurationLeavesTheDescriptionAsItWas() {
    Registry registry = layered();
    // Kept reachable: a reconfiguration resolves again only the calls still referenced.
    Stack<String> quotes = quotes(registry);
    String before = registry.describe().toString();

    assertThrows(ConfigurationException.class, () -> registry.reconfigure(
        Map.of("BRACE_CIRCUITBREAKER_QUOTES_API_RESET_TIMEOUT", "45s", "BRACE_RETRY_QUOTES_LATEST_MAX_ATTEMPTS", "many"),
        Map.of()));

    assertEquals(before, registry.describe().toString());
    Reference.reachabilityFence(quotes);
  }

  private static Source source(Description.Instance instance, String attribute) {
    return instance.setting(attribute).orElseThrow(() -> new AssertionError(instance + " has no " + attribute)).source();
  }
}
