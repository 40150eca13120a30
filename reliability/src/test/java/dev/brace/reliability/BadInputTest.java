package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Brace;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input at every public entry. Each case must end in a clear error (its type and a message
 * that names what was wrong) and leave every instance usable: a good call afterwards succeeds, no
 * permit is held and no breaker is stuck.
 */
class BadInputTest {
  private final Registry registry = Registry.builder().build();
  private final Scripted delegate = new Scripted();

  /** A delegate each test scripts. */
  static final class Scripted implements Fragile {
    volatile boolean fail;
    volatile boolean nullFuture;
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String byTenant(String tenant) throws IOException {
      return answer("tenant " + tenant);
    }

    @Override
    public CompletableFuture<String> async(String id) {
      calls.incrementAndGet();
      if (nullFuture) {
        return null;
      }
      return fail ? CompletableFuture.failedFuture(new IOException("down")) : CompletableFuture.completedFuture("async " + id);
    }

    @Override
    public String withFallback(String id) throws IOException {
      return answer(id);
    }

    @Override
    public String timed(String id) throws IOException {
      return answer(id);
    }

    private String answer(String value) throws IOException {
      calls.incrementAndGet();
      if (fail) {
        throw new IOException("down");
      }
      return value;
    }
  }

  @Test
  void nullArgumentsToTheEntryPointsNameTheArgument() {
    Fragile good = ResilientFragile.wrap(delegate, registry);
    assertMessage(NullPointerException.class, "type", () -> Brace.wrap(null, delegate, registry));
    assertMessage(NullPointerException.class, "delegate", () -> Brace.wrap(Fragile.class, null, registry));
    assertMessage(NullPointerException.class, "registry", () -> Brace.wrap(Fragile.class, delegate, null));
    assertThrows(NullPointerException.class, () -> ResilientFragile.wrap(null, registry));
    assertThrows(NullPointerException.class, () -> ResilientFragile.wrap(delegate, null));
    assertThrows(NullPointerException.class, () -> registry.subscribe(null));
    assertThrows(NullPointerException.class, () -> Registry.builder().environment(null));
    assertThrows(NullPointerException.class, () -> Registry.builder().timeSource(null));

    assertUsable(good);
  }

  @Test
  void aKeyTemplateThatResolvesToNullIsRefusedByName() throws IOException {
    Fragile fragile = ResilientFragile.wrap(delegate, registry);

    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> fragile.byTenant(null));

    assertTrue(refused.getMessage().contains("{tenant}") && refused.getMessage().contains("Fragile.byTenant"), refused.getMessage());
    assertEquals(0, delegate.calls.get(), "the delegate was not called without a key");
    assertEquals("tenant acme", fragile.byTenant("acme"));
    assertEquals(0, registry.bulkhead("fragile-keyed").inFlight());
  }

  @Test
  void aDelegateThatReturnsNoFutureFailsTheFutureAndHoldsNothing() throws Exception {
    Fragile fragile = ResilientFragile.wrap(delegate, registry);
    delegate.nullFuture = true;

    CompletableFuture<String> future = fragile.async("x");

    ExecutionException failed = assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
    assertInstanceOf(NullPointerException.class, failed.getCause());
    assertTrue(failed.getCause().getMessage().contains("Fragile.async returned null instead of a future"), failed.getCause().getMessage());
    delegate.nullFuture = false;
    assertEquals("async y", fragile.async("y").get(5, TimeUnit.SECONDS));
    assertEquals(0, registry.bulkhead("fragile-async").inFlight());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("fragile-async").state());
  }

  @Test
  void aFallbackThatThrowsPropagatesItsOwnFailureWithTheOriginalAttached() throws IOException {
    Fragile fragile = ResilientFragile.wrap(delegate, registry);
    delegate.fail = true;

    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> fragile.withFallback("fallback-breaks"));

    assertEquals("the fallback itself failed", thrown.getMessage());
    assertEquals(1, thrown.getSuppressed().length);
    assertInstanceOf(IOException.class, thrown.getSuppressed()[0]);
    assertEquals("fallback:other", fragile.withFallback("other"));
    delegate.fail = false;
    assertEquals("good", fragile.withFallback("good"));
  }

  @Test
  void listenersThatThrowNeverBreakACallOrAnInstance() throws Exception {
    AtomicInteger seen = new AtomicInteger();
    registry.subscribe(event -> {
      seen.incrementAndGet();
      throw new IllegalStateException("listener broke on " + event.kind());
    });
    // An Error from a listener (a failed assertion in a test's listener, say) must not escape
    // either: circuit.half_open is emitted after the probe is admitted and before its ticket is
    // returned, so escaping there would leave the breaker HALF_OPEN with a probe no one completes.
    registry.subscribe(event -> {
      throw new AssertionError("listener assertion on " + event.kind());
    });
    Fragile fragile = ResilientFragile.wrap(delegate, registry);
    delegate.fail = true;
    IOException down = assertThrows(IOException.class, () -> fragile.timed("a"));
    assertEquals("down", down.getMessage());
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("fragile-timed").state());
    delegate.fail = false;
    Thread.sleep(80);

    assertEquals("b", fragile.timed("b"));
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("fragile-timed").state());
    assertEquals("c", fragile.timed("c"));
    assertTrue(seen.get() >= 4, "the listeners saw opened, half_open, closed and the retries: " + seen);
  }

  @ParameterizedTest
  @ValueSource(strings = {"-5s", "0ms", "-PT1S", "9999999999999999h", "PT2562048H", "soon", ""})
  void aBadDurationFromConfigurationIsAClearErrorAndOtherInstancesStayUsable(String duration) throws Exception {
    Registry configured =
        Registry.builder().environment(Map.of("BRACE_TIMEOUT_FRAGILE_TIMED_DURATION", duration)).build();
    Scripted scripted = new Scripted();

    Throwable failure = null;
    try {
      ResilientFragile.wrap(scripted, configured).timed("t");
    } catch (Throwable thrown) {
      failure = thrown;
    }

    if (failure != null) {
      assertInstanceOf(ConfigurationException.class, failure);
      assertTrue(failure.getMessage().contains("BRACE_TIMEOUT_FRAGILE_TIMED_DURATION") || failure.getMessage().contains("Fragile.timed"),
          failure.getMessage());
      System.out.println("[reliability] bad-duration " + (duration.isEmpty() ? "(empty)" : duration) + " -> " + failure.getMessage());
    } else {
      System.out.println("[reliability] bad-duration " + duration + " -> accepted (saturated)");
    }
    // Instances of the same registry that the failed wrap may have created stay usable.
    Steady steady = ResilientSteady.wrap(new Steady() {
      @Override
      public String byTenant(String tenant) {
        return "steady " + tenant;
      }
    }, configured);
    assertEquals("steady t", steady.byTenant("t"));
    assertEquals(0, configured.bulkhead("fragile-keyed").inFlight());
    if (failure == null) {
      assertEquals("async t", ResilientFragile.wrap(scripted, configured).async("t").get(5, TimeUnit.SECONDS));
    }
  }

  private void assertUsable(Fragile fragile) {
    try {
      assertEquals("tenant ok", fragile.byTenant("ok"));
    } catch (IOException unexpected) {
      throw new AssertionError(unexpected);
    }
  }

  private static void assertMessage(Class<? extends Throwable> type, String text, org.junit.jupiter.api.function.Executable call) {
    Throwable thrown = assertThrows(type, call);
    assertTrue(String.valueOf(thrown.getMessage()).contains(text), Arrays.toString(new Object[] {type, thrown.getMessage()}));
  }

  @SuppressWarnings("unused")
  private static void same(Object expected, Object actual) {
    assertSame(expected, actual);
  }
}
