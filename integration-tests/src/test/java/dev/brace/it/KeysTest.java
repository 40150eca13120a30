package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Keyed calls through generated wrappers: keys are computed where the call's failures go (inside
 * an async method's future), not at all when Brace is off, and a hot key's OPEN breaker or a
 * limiter with a waiter survives eviction while idle ones can go instead (issue 14, items found by
 * reading the code).
 */
class KeysTest {

  private static final class Hosts implements PipelineClients.ByHost {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String fetch(PipelineClients.Target target) {
      calls.incrementAndGet();
      return "fetched";
    }

    @Override
    public CompletableFuture<String> fetchAsync(PipelineClients.Target target) {
      calls.incrementAndGet();
      return CompletableFuture.completedFuture("fetched");
    }
  }

  private static Registry registry(Map<String, String> environment) {
    return Registry.builder().timeSource(new ManualTimeSource()).environment(environment).systemProperties(Map.of()).build();
  }

  @Test
  void aNullKeyPartOfAnAsyncMethodFailsItsFutureInsteadOfThrowing() {
    Hosts hosts = new Hosts();
    PipelineClients.ByHost client = ResilientPipelineClients_ByHost.wrap(hosts, registry(Map.of()));

    CompletableFuture<String> future = client.fetchAsync(new PipelineClients.Target(null));

    ExecutionException failed = assertThrows(ExecutionException.class, future::get);
    assertTrue(failed.getCause() instanceof IllegalArgumentException, String.valueOf(failed.getCause()));
    assertTrue(failed.getCause().getMessage().contains("target.host"), failed.getCause().getMessage());
    assertEquals(0, hosts.calls.get());
  }

  @Test
  void keysAreNotEvaluatedWhenBraceIsSwitchedOff() throws Exception {
    Hosts hosts = new Hosts();
    PipelineClients.ByHost client = ResilientPipelineClients_ByHost.wrap(hosts, registry(Map.of("BRACE_ENABLED", "false")));
    PipelineClients.Target target = new PipelineClients.Target(null);

    assertEquals("fetched", client.fetch(target));
    assertEquals("fetched", client.fetchAsync(target).get());

    assertEquals(0, target.reads.get(), "a pass-through computes no key (and so cannot fail on a null part)");
    assertEquals(2, hosts.calls.get());
  }

  @Test
  void keyedEvictionKeepsAnOpenBreakerWhileIdleOnesCanGo() throws Exception {
    Registry registry = registry(Map.of());
    AtomicInteger calls = new AtomicInteger();
    PipelineClients.Evicting client = ResilientPipelineClients_Evicting.wrap(key -> {
      calls.incrementAndGet();
      if (key.equals("hot")) {
        throw new IOException("down");
      }
      return key;
    }, registry);
    assertThrows(IOException.class, () -> client.call("hot"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("evicting[hot]").state());

    for (String idle : new String[] {"a", "b", "c"}) {
      assertEquals(idle, client.call(idle));
    }

    assertThrows(CircuitOpenException.class, () -> client.call("hot"), "maxKeys 3 is exceeded, but closed idle breakers go first");
    assertEquals(4, calls.get());
  }

  @Test
  void keyedEvictionKeepsALimiterWithAWaiterWhileIdleOnesCanGo() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock).environment(Map.of()).systemProperties(Map.of()).build();
    PipelineClients.EvictingLimiter client =
        ResilientPipelineClients_EvictingLimiter.wrap(key -> CompletableFuture.completedFuture(key), registry);
    assertEquals("busy", client.call("busy").get());
    CompletableFuture<String> waiting = client.call("busy");
    assertFalse(waiting.isDone(), "busy's next token is 10 s away: the call waits for it");

    for (String idle : new String[] {"a", "b", "c"}) {
      assertEquals(idle, client.call(idle).get());
    }

    CompletableFuture<String> again = client.call("busy");
    assertTrue(again.isCompletedExceptionally(),
        "busy's bucket, kept, owes its next token to the waiter: the one after is 20 s away, beyond maxWait");
    ExecutionException refused = assertThrows(ExecutionException.class, again::get);
    assertTrue(refused.getCause() instanceof RateLimitedException, String.valueOf(refused.getCause()));
    clock.advance(Duration.ofSeconds(10));
    assertEquals("busy", waiting.get(), "the waiter got its token");
  }
}
