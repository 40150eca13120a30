package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The order guarantees through generated wrappers, on manual time. */
class OrderGuaranteesTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();

  @Test
  void aHangingDependencyBehindATimeoutOpensTheCircuit() {
    AtomicInteger reached = new AtomicInteger();
    Clients.Hanging client = ResilientClients_Hanging.wrap(id -> {
      reached.incrementAndGet();
      try {
        clock.sleep(Duration.ofMinutes(1));
      } catch (InterruptedException interrupted) {
        throw new IOException("interrupted", interrupted);
      }
      return "never";
    }, registry);

    assertThrows(TimeoutExceededException.class, () -> client.fetch("a"));
    assertThrows(TimeoutExceededException.class, () -> client.fetch("b"));
    assertThrows(CircuitOpenException.class, () -> client.fetch("c"));

    assertEquals(2, reached.get(), "the third call never reached the delegate");
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("hanging").state());
    assertTrue(!Thread.currentThread().isInterrupted());
  }

  @Test
  void aRetryNeverRetriesItsOwnBreakersRefusalAndTheRefusalCarriesTheEarlierFailure() {
    AtomicInteger reached = new AtomicInteger();
    IOException down = new IOException("down");
    Clients.Ordered client = ResilientClients_Ordered.wrap(n -> {
      reached.incrementAndGet();
      throw down;
    }, registry);

    CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> client.call(1));

    assertEquals(1, reached.get(), "attempt 1 failed and opened the circuit; attempt 2 was refused and not retried");
    assertSame(down, refused.getSuppressed()[0]);
  }

  @Test
  void aRetryThatNamesTheRefusalWaitsOutTheOpenWindow() throws IOException {
    AtomicInteger reached = new AtomicInteger();
    Clients.RidesOut client = ResilientClients_RidesOut.wrap(() -> {
      if (reached.incrementAndGet() == 1) {
        throw new IOException("blip");
      }
      return "recovered";
    }, registry);
    long start = clock.nanoTime();

    assertThrows(CircuitOpenException.class, client::call, "attempt 1 fails, attempt 2 is refused: no attempts left");
    clock.advance(Duration.ofSeconds(3));
    reached.set(1);
    assertEquals("recovered", client.call(), "the probe is admitted after resetTimeout");
    assertTrue(clock.nanoTime() - start >= Duration.ofSeconds(2).toNanos());
  }

  @Test
  void aFullBulkheadIsNeverCountedAsABreakerFailure() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Clients.Crowded client = ResilientClients_Crowded.wrap(() -> {
      inside.countDown();
      release.await();
      return "done";
    }, registry);
    CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> {
      try {
        return client.call();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    assertTrue(inside.await(10, TimeUnit.SECONDS));

    for (int i = 0; i < 5; i++) {
      assertThrows(BulkheadFullException.class, client::call);
    }

    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("crowded").state(), "failureThreshold is 1");
    release.countDown();
    assertEquals("done", holder.get(10, TimeUnit.SECONDS));
    assertEquals(0, registry.bulkhead("crowded").inFlight());
  }

  @Test
  void anErrorIsNeverRetriedAndReleasesEveryPermit() {
    AtomicInteger reached = new AtomicInteger();
    Clients.Ordered client = ResilientClients_Ordered.wrap(n -> {
      reached.incrementAndGet();
      throw new OutOfMemoryError("simulated");
    }, registry);

    assertThrows(OutOfMemoryError.class, () -> client.call(1));

    assertEquals(1, reached.get());
    assertEquals(0, registry.bulkhead("ordered").inFlight());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("ordered").state(), "an Error is not recorded");
  }

  @Test
  void eachRetryAttemptTakesAFreshTokenAndPermit() throws IOException {
    AtomicInteger reached = new AtomicInteger();
    Registry roomy = Registry.builder().timeSource(clock)
        .circuitBreaker("ordered", b -> b.failureThreshold(10)).build();
    Clients.Ordered client = ResilientClients_Ordered.wrap(n -> {
      if (reached.incrementAndGet() < 3) {
        throw new IOException("transient");
      }
      return "third time";
    }, roomy);
    long tokensBefore = 100;

    assertEquals("third time", client.call(1));

    assertEquals(tokensBefore - 3, roomy.rateLimiter("ordered").availablePermits());
    assertEquals(0, roomy.bulkhead("ordered").inFlight());
  }
}
