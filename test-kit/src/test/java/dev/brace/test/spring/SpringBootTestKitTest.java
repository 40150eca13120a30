package dev.brace.test.spring;

import static dev.brace.runtime.CircuitState.CLOSED;
import static dev.brace.runtime.CircuitState.HALF_OPEN;
import static dev.brace.runtime.CircuitState.OPEN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.Registry;
import dev.brace.test.BraceTestKit;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.web.client.HttpServerErrorException;

/** The application's own registry and wrapped beans, on the test's time. */
@SpringBootTest(classes = QuotesApplication.class)
@AutoConfigureBraceTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SpringBootTestKitTest {
  @Autowired Quotes quotes;
  @Autowired Prices prices;
  @Autowired QuotesApplication.Script script;
  @Autowired BraceTestKit brace;
  @Autowired Registry registry;

  @Test
  @Order(1)
  void theApplicationsRegistryIsTheKitsAndRunsOnItsTime() {
    assertEquals(registry, brace.registry());
    assertEquals(brace.time().source(), registry.timeSource());
    assertFalse(quotes.getClass().getName().contains("QuotesApplication"), "the starter wrapped the bean");
  }

  @Test
  @Order(2)
  void aSpringHttpInterfaceWaitsTheRetryAfterOfA503() {
    script.unavailable(1);

    assertEquals("ACME 42.00", quotes.quote("ACME"));

    brace.call("Quotes.quote").retried(1).waitedAtLeast(Duration.ofSeconds(1)).thenSucceeded();
  }

  @Test
  @Order(3)
  void aFeignClientWaitsTheRetryAfterOfA503() {
    script.unavailable(1);

    assertEquals("ACME 41.50", prices.price("ACME"));

    brace.call("Prices.price").retried(1).waitedAtLeast(Duration.ofSeconds(1)).thenSucceeded();
  }

  @Test
  @Order(4)
  void theBreakerOpensWaitsThirtySecondsProbesAndCloses() {
    script.unavailable(3);
    assertThrows(HttpServerErrorException.class, () -> quotes.quote("ACME"));   // two failed attempts
    CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> quotes.quote("ACME"));
    assertInstanceOf(HttpServerErrorException.class, refused.getSuppressed()[0]);

    brace.advance(Duration.ofSeconds(30));
    assertEquals("ACME 42.00", quotes.quote("ACME"));

    brace.breaker("quotes-api").wentThrough(OPEN, HALF_OPEN, CLOSED);
  }

  @Test
  @Order(5)
  void aControlHoldsForTheTestOnly() {
    brace.forceOpen("quotes-api");
    assertThrows(CircuitOpenException.class, () -> quotes.quote("ACME"));
    brace.call("Quotes.quote").wasRejected();
  }

  @Test
  @Order(6)
  void theNextTestStartsWithTheBreakerClosedAndNothingRecorded() {
    assertEquals(CLOSED, registry.circuitBreaker("quotes-api").state());
    assertTrue(brace.events().isEmpty(), brace.timeline());
    assertEquals("ACME 42.00", quotes.quote("ACME"));
  }

  @Test
  @Order(7)
  void faultInjectionReachesTheApplicationsRegistryThroughItsEnvironment() {
    brace.injectFault("Prices.price", IllegalStateException.class);

    assertThrows(IllegalStateException.class, () -> prices.price("ACME"));
    brace.call("Prices.price").attempted(1).retried(0).failed();
  }
}
