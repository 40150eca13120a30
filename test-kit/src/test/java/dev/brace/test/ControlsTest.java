package dev.brace.test;

import static dev.brace.runtime.CircuitState.CLOSED;
import static dev.brace.runtime.CircuitState.OPEN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.RateLimitedException;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each control does what it names while in force, and nothing once undone. */
class ControlsTest {
  private BraceTestKit brace;
  private ScriptedFake fake;
  private Catalog catalog;
  private Stock stock;

  @BeforeEach
  void start() {
    brace = BraceTestKit.start();
    fake = new ScriptedFake();
    catalog = brace.wrap(Catalog.class, fake);
    stock = brace.wrap(Stock.class, fake);
  }

  @AfterEach
  void stop() {
    brace.close();
  }

  @Test
  void aForcedOpenBreakerRefusesEveryCallHoweverLongTheTestWaitsUntilUndone() throws IOException {
    brace.forceOpen("catalog-api");
    brace.advance(Duration.ofDays(1));

    CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> catalog.price("42"));
    assertTrue(refused.retryAfter().isEmpty(), "a forced breaker promises no probe");
    assertEquals(0, fake.calls());
    brace.call("Catalog.price").wasRejected();

    brace.undoControls();
    assertEquals("item 42", catalog.price("42"));
    brace.breaker("catalog-api").wentThrough(OPEN, CLOSED);
  }

  @Test
  void aForcedClosedBreakerAdmitsCallsThatWouldHaveOpenedIt() throws IOException {
    brace.forceClosed("catalog-api");
    fake.failing(10);
    for (int i = 0; i < 10; i++) {
      assertThrows(IOException.class, () -> catalog.price("42"));
    }
    brace.breaker("catalog-api").isClosed().wentThrough();

    brace.undoControls();
    fake.failing(5);
    for (int i = 0; i < 5; i++) {
      assertThrows(IOException.class, () -> catalog.price("42"));
    }
    brace.breaker("catalog-api").isOpen();
  }

  @Test
  void aForcedEmptyLimiterRefusesUntilUndone() {
    brace.forceEmpty("stock-api");
    brace.advance(Duration.ofHours(1));

    assertThrows(RateLimitedException.class, () -> stock.level("sku"));
    brace.call("Stock.level").wasRejected();

    brace.undoControls();
    assertEquals(7, stock.level("sku"));
  }

  @Test
  void aForcedFullBulkheadRefusesUntilUndone() {
    brace.forceFull("stock-pool");

    assertThrows(BulkheadFullException.class, () -> stock.level("sku"));
    assertEquals(0, brace.registry().bulkhead("stock-pool").available());

    brace.undoControls();
    assertEquals(2, brace.registry().bulkhead("stock-pool").available());
    assertEquals(7, stock.level("sku"));
  }

  @Test
  void anInjectedFaultFailsTheAttemptsWithoutCallingTheDependencyUntilUndone() throws IOException {
    brace.injectFault("Catalog.item", IOException.class);

    assertEquals(Catalog.UNKNOWN, catalog.item("42"));
    assertEquals(0, fake.calls(), "an injected fault does not call the dependency");
    brace.call("Catalog.item").retried(2).thenFellBack();

    brace.undoControls();
    assertEquals("item 42", catalog.item("42"));
    assertEquals(1, fake.calls());
  }

  @Test
  void anInjectedLatencyDelaysEachAttemptOnTheTestsTime() throws IOException {
    brace.injectLatency("catalog-api", Duration.ofSeconds(2));

    assertEquals("item 42", catalog.price("42"));
    assertEquals(Duration.ofSeconds(2), brace.elapsed());

    brace.undoControls();
    catalog.price("42");
    assertEquals(Duration.ofSeconds(2), brace.elapsed());
  }

  @Test
  void undoingOneInjectionLeavesNoneBehindAndANegativeLatencyIsRefused() throws IOException {
    brace.injectFault("Catalog.item", IOException.class);
    brace.injectLatency("catalog-api", Duration.ofSeconds(1));
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> brace.injectLatency("catalog-api", Duration.ofSeconds(-1)));
    assertTrue(negative.getMessage().startsWith("injectLatency('catalog-api', PT-1S)"), negative.getMessage());

    brace.undoControls();

    assertEquals("item 42", catalog.item("42"));
    assertEquals("item 42", catalog.price("42"));
    assertEquals(Duration.ZERO, brace.elapsed());
    assertEquals(2, fake.calls());
  }

  @Test
  void closingTheKitUndoesEveryControl() {
    brace.forceOpen("catalog-api");
    brace.forceEmpty("stock-api");
    brace.forceFull("stock-pool");

    brace.close();

    assertEquals(CLOSED, brace.registry().circuitBreaker("catalog-api").state());
    assertEquals(5, brace.registry().rateLimiter("stock-api").availablePermits());
    assertEquals(2, brace.registry().bulkhead("stock-pool").available());
  }

  @Test
  void forcingAnUnknownInstanceNamesItAndTheInstancesThereAre() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> brace.forceOpen("catalog"));
    assertTrue(unknown.getMessage().contains("'catalog'"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains("catalog-api"), unknown.getMessage());

    IllegalArgumentException limiter = assertThrows(IllegalArgumentException.class, () -> brace.forceEmpty("stock"));
    assertTrue(limiter.getMessage().contains("stock-api"), limiter.getMessage());

    IllegalArgumentException bulkhead = assertThrows(IllegalArgumentException.class, () -> brace.forceFull("pool"));
    assertTrue(bulkhead.getMessage().contains("stock-pool"), bulkhead.getMessage());

    IllegalArgumentException injection =
        assertThrows(IllegalArgumentException.class, () -> brace.injectFault("Catalog.items", IOException.class));
    assertTrue(injection.getMessage().contains("'Catalog.items'") && injection.getMessage().contains("Catalog.item,"),
        injection.getMessage());
  }

  @Test
  void advancingTimeBackwardsIsRefusedAndNamesTheDuration() {
    brace.advance(Duration.ofSeconds(3));

    IllegalArgumentException backwards = assertThrows(IllegalArgumentException.class, () -> brace.advance(Duration.ofSeconds(-1)));

    assertTrue(backwards.getMessage().startsWith("advance(PT-1S): time only moves forward, and the test is at +3.000s"),
        backwards.getMessage());
    assertEquals(Duration.ofSeconds(3), brace.elapsed());
  }
}
