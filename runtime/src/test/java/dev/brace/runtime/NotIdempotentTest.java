package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.config.Idempotence;
import dev.brace.runtime.config.RetryConfig;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A call marked not idempotent is retried only on failures that prove the request never left,
 * and configuration cannot widen that: checked when the stack (or wrapper) is created.
 */
class NotIdempotentTest {

  /** A connection refused by the proxy in front of the dependency: never sent, by its type. */
  static final class ProxyRefused extends ConnectException {
    private static final long serialVersionUID = 1L;

    ProxyRefused(String message) {
      super(message);
    }
  }

  private static Registry registry(Consumer<Registry.Builder> settings) {
    Registry.Builder builder = Registry.builder().timeSource(new ManualTimeSource())
        .environment(Map.of()).systemProperties(Map.of());
    settings.accept(builder);
    return builder.build();
  }

  private static Stack<String> payment(Registry registry, Consumer<RetryConfig.Builder> retry) {
    return Stack.<String>builder("payments.charge").notIdempotent().retry(retry).build(registry);
  }

  @Test
  void theNeverSentFailuresAndTheirSubtypesProveIt() {
    for (Class<? extends Throwable> type : Idempotence.NEVER_SENT) {
      assertTrue(Idempotence.provesNeverSent(type), type.getName());
    }
    assertTrue(Idempotence.provesNeverSent(ProxyRefused.class));
    assertTrue(Idempotence.provesNeverSent(UnknownHostException.class));
    assertFalse(Idempotence.provesNeverSent(IOException.class), "a superclass proves nothing");
    assertFalse(Idempotence.provesNeverSent(SocketTimeoutException.class), "a read that timed out may have been acted on");
    assertFalse(Idempotence.provesNeverSent(HttpConnectTimeoutException.class), "not a ConnectException");
    assertFalse(Idempotence.provesNeverSent(Exception.class));
  }

  @Test
  void aConnectionNeverMadeIsRetriedAnythingElseIsNot() throws Exception {
    Stack<String> charge = payment(registry(r -> { }),
        r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE).on(ConnectException.class, NoRouteToHostException.class));
    AtomicInteger sent = new AtomicInteger();

    assertEquals("charged", charge.call(() -> {
      if (sent.incrementAndGet() < 3) {
        throw new ProxyRefused("refused " + sent.get());
      }
      return "charged";
    }));
    assertEquals(3, sent.get());

    sent.set(0);
    assertThrows(SocketTimeoutException.class, () -> charge.call(() -> {
      sent.incrementAndGet();
      throw new SocketTimeoutException("read timed out");
    }));
    assertEquals(1, sent.get(), "the request may have been acted on: never sent again");
  }

  /** What a client framework throws around the failure it met, as Spring's ResourceAccessException does. */
  static final class ClientFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ClientFailure(Throwable cause) {
      super("I/O error on POST request: " + cause.getMessage(), cause);
    }
  }

  @Test
  void aFrameworkExceptionCausedByAConnectionNeverMadeIsRetriedOneCausedByAReadIsNot() throws Exception {
    Stack<String> charge = payment(registry(r -> { }),
        r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE).on(ConnectException.class));
    AtomicInteger sent = new AtomicInteger();

    assertEquals("charged", charge.call(() -> {
      if (sent.incrementAndGet() < 3) {
        throw new ClientFailure(new ConnectException("Connection refused"));
      }
      return "charged";
    }));
    assertEquals(3, sent.get(), "a connection never made proves the request never left, whatever wraps it");

    sent.set(0);
    assertThrows(ClientFailure.class, () -> charge.call(() -> {
      sent.incrementAndGet();
      throw new ClientFailure(new SocketTimeoutException("Read timed out"));
    }));
    assertEquals(1, sent.get(), "the request may have been acted on: never sent again");
  }

  @Test
  void anotherCallsRefusalInsideTheDelegatesFailureProvesNothing() {
    Stack<String> charge = payment(registry(r -> { }),
        r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE).on(CircuitOpenException.class));
    AtomicInteger sent = new AtomicInteger();

    assertThrows(ClientFailure.class, () -> charge.call(() -> {
      sent.incrementAndGet();
      // The delegate may have acted before a call of its own was refused.
      throw new ClientFailure(new CircuitOpenException("ledger", java.time.Duration.ofSeconds(1)));
    }));
    assertEquals(1, sent.get(), "a refusal proves a call never left only as the failure itself");
  }

  @Test
  void aRetryOnEveryExceptionIsRefusedNamingTheSiteAndTheLayer() {
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> payment(registry(r -> { }), r -> r.maxAttempts(2)));

    assertEquals("[brace:not-idempotent-retry]", refused.tag());
    assertEquals("[brace:not-idempotent-retry] stack 'payments.charge' is @NotIdempotent: its retry may retry only failures"
        + " that prove the request was never sent (dev.brace.runtime.CircuitOpenException, dev.brace.runtime.RateLimitedException,"
        + " dev.brace.runtime.BulkheadFullException, java.net.ConnectException, java.net.UnknownHostException,"
        + " java.net.NoRouteToHostException, or a subtype of one), never a result; but its on = {java.lang.Exception} (default)"
        + " includes java.lang.Exception. Narrow that setting, or give the call no retry", refused.getMessage());
  }

  @Test
  void programmaticSettingsCannotWidenWhatTheSiteAllowed() {
    Registry widened = registry(r -> r.retry("payments.charge", retry -> retry.on(ConnectException.class, IOException.class)));
    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> payment(widened, r -> r.on(ConnectException.class)));
    assertTrue(refused.getMessage().contains("its on = {java.net.ConnectException, java.io.IOException} (programmatic)"
        + " includes java.io.IOException"), refused.getMessage());

    Registry results = registry(r -> r.retry("payments.charge", retry -> retry.onResult((String result) -> result.isEmpty())));
    ConfigurationException onResult = assertThrows(ConfigurationException.class,
        () -> payment(results, r -> r.on(ConnectException.class)));
    assertTrue(onResult.getMessage().contains("(programmatic) retries a result, which the dependency did send"), onResult.getMessage());

    Registry narrowed = registry(r -> r.retry("payments.charge", retry -> retry.on(UnknownHostException.class).maxAttempts(5)));
    assertDoesNotThrow(() -> payment(narrowed, r -> r.on(ConnectException.class)), "narrowing is always allowed");
  }

  @Test
  void aRetrySwitchedOffIsNotChecked() {
    Registry off = Registry.builder().environment(Map.of("BRACE_RETRY_PAYMENTS_CHARGE_ENABLED", "false"))
        .systemProperties(Map.of()).build();
    assertDoesNotThrow(() -> payment(off, r -> r.on(IOException.class)), "a retry that is off repeats nothing");
  }

  @Test
  void aReconfigurationThatSwitchesOnARetryTheCallMayNotHaveIsRefusedAndChangesNothing() {
    Registry registry = Registry.builder().timeSource(new ManualTimeSource())
        .environment(Map.of("BRACE_RETRY_PAYMENTS_CHARGE_ENABLED", "false")).systemProperties(Map.of()).build();
    Stack<String> charge = payment(registry, r -> r.maxAttempts(3).on(IOException.class));

    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> registry.reconfigure(Map.of(), Map.of()), "dropping the switch would turn on a retry on IOException");

    assertEquals("[brace:reconfiguration-refused]", refused.tag());
    assertTrue(refused.getMessage().contains("\n  [brace:not-idempotent-retry] stack 'payments.charge' is @NotIdempotent"),
        refused.getMessage());
    assertTrue(refused.getMessage().contains("includes java.io.IOException"), refused.getMessage());
    AtomicInteger sent = new AtomicInteger();
    assertThrows(IOException.class, () -> charge.call(() -> {
      sent.incrementAndGet();
      throw new IOException("connection reset");
    }));
    assertEquals(1, sent.get(), "the retry is still off: a refused reconfiguration changes nothing");
  }

  @Test
  void aReconfigurationOfARetryThatOnlyRetriesNeverSentFailuresIsApplied() throws Exception {
    Registry registry = registry(r -> { });
    Stack<String> charge = payment(registry, r -> r.maxAttempts(2).delay("0ms").on(ConnectException.class));

    registry.reconfigure(Map.of("BRACE_RETRY_PAYMENTS_CHARGE_MAX_ATTEMPTS", "4"), Map.of());

    assertEquals("4", registry.settings("retry", "payments.charge").get("maxAttempts"));
    AtomicInteger sent = new AtomicInteger();
    assertEquals("charged", charge.call(() -> {
      if (sent.incrementAndGet() < 4) {
        throw new ProxyRefused("refused " + sent.get());
      }
      return "charged";
    }));
    assertEquals(4, sent.get());
  }
}
