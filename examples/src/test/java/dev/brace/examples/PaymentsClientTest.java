package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What the guide says {@link PaymentsClient}'s {@code @NotIdempotent} does, through the generated wrapper. */
class PaymentsClientTest {

  /** A payment service that fails each charge with the next of {@code failures}, then charges. */
  private static final class FakePayments implements PaymentsClient {
    final AtomicInteger charges = new AtomicInteger();
    private final IOException[] failures;

    FakePayments(IOException... failures) {
      this.failures = failures;
    }

    @Override
    public String charge(String orderId, long cents) throws IOException {
      int attempt = charges.incrementAndGet();
      if (attempt <= failures.length) {
        throw failures[attempt - 1];
      }
      return "payment-" + orderId;
    }
  }

  private static Registry registry() {
    return Registry.builder().timeSource(new ManualTimeSource()).environment(Map.of()).systemProperties(Map.of()).build();
  }

  @Test
  void aChargeIsRetriedWhenTheConnectionWasNeverMadeAndNeverOnceSent() throws Exception {
    FakePayments refusedTwice = new FakePayments(new ConnectException("refused"), new ConnectException("refused"));
    assertEquals("payment-o1", ResilientPaymentsClient.wrap(refusedTwice, registry()).charge("o1", 1200));
    assertEquals(3, refusedTwice.charges.get(), "two connections refused, then charged once");

    FakePayments timedOut = new FakePayments(new SocketTimeoutException("read timed out"));
    assertThrows(SocketTimeoutException.class, () -> ResilientPaymentsClient.wrap(timedOut, registry()).charge("o2", 1200));
    assertEquals(1, timedOut.charges.get(), "the charge may have gone through: it is not sent again");
  }

  @Test
  void configurationCannotWidenTheRetryOfACharge() {
    Registry widened = Registry.builder()
        .retry("PaymentsClient.charge", r -> r.on(ConnectException.class, IOException.class))
        .environment(Map.of()).systemProperties(Map.of())
        .build();

    ConfigurationException refused =
        assertThrows(ConfigurationException.class, () -> ResilientPaymentsClient.wrap(new FakePayments(), widened));

    assertEquals("[brace:not-idempotent-retry]", refused.tag());
    assertTrue(refused.getMessage().contains("(programmatic) includes java.io.IOException"), refused.getMessage());
  }
}
