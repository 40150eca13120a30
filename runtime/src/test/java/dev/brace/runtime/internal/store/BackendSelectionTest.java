package dev.brace.runtime.internal.store;

import dev.brace.runtime.Backend;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.LambdaCalls;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code backend} setting picks where a breaker's or limiter's state lives. */
class BackendSelectionTest {

  /** Hands out the registry's local instances and notes which names it was asked for. */
  private static final class RecordingBackend implements Backend {
    final List<String> asked = new ArrayList<>();

    @Override
    public RateLimiterInstance rateLimiter(RateLimitConfig config, BackendContext context) {
      asked.add(context.backendName() + ":" + config.name());
      return context.localRateLimiter(config);
    }

    @Override
    public CircuitBreakerInstance circuitBreaker(CircuitBreakerConfig config, BackendContext context) {
      asked.add(context.backendName() + ":" + config.name());
      return context.localCircuitBreaker(config);
    }
  }

  /**
   * A backend whose limiters are its own type (each forwards to a local bucket), so the call
   * sequence cannot take the local bucket's own path, and counts the tokens taken.
   */
  private static final class ForwardingBackend implements Backend {
    int acquired;

    @Override
    public RateLimiterInstance rateLimiter(RateLimitConfig config, BackendContext context) {
      RateLimiterInstance local = context.localRateLimiter(config);
      return new RateLimiterInstance() {
        @Override
        public void acquire() {
          acquired++;
          local.acquire();
        }

        @Override
        public long reserveToken() {
          acquired++;
          return local.reserveToken();
        }

        @Override
        public long waitFor(long reservation) {
          return local.waitFor(reservation);
        }

        @Override
        public void cancelReservation(long reservation) {
          local.cancelReservation(reservation);
        }

        @Override
        public void waited(long waitedNanos) {
          local.waited(waitedNanos);
        }

        @Override
        public String name() {
          return local.name();
        }

        @Override
        public long availablePermits() {
          return local.availablePermits();
        }

        @Override
        public double currentRate() {
          return local.currentRate();
        }
      };
    }

    @Override
    public CircuitBreakerInstance circuitBreaker(CircuitBreakerConfig config, BackendContext context) {
      return context.localCircuitBreaker(config);
    }
  }

  private static CallDefinition call() {
    return LambdaCalls.builder("C.m")
        .with(CircuitBreakerConfig.builder("api").failureThreshold(1))
        .with(RateLimitConfig.builder("quota").permits(1).key("{user}"))
        .build();
  }

  @Test
  void onlyInstancesWhoseSettingNamesTheBackendUseIt() {
    RecordingBackend shared = new RecordingBackend();
    Registry registry = Registry.builder()
        .timeSource(new ManualTimeSource())
        .backend("shared", shared)
        .environment(Map.of("BRACE_RATELIMIT_QUOTA_BACKEND", "shared"))
        .build();
    ResilientCall guard = registry.resolve(call());

    assertEquals("ok", LambdaCalls.call(guard, () -> CallKeys.of(null, "u1"), () -> "ok", null));
    assertThrows(RateLimitedException.class, () -> LambdaCalls.call(guard, () -> CallKeys.of(null, "u1"), () -> "ok", null));
    assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> CallKeys.of(null, "u2"), () -> {
      throw new IOException("down");
    }, null));

    assertEquals(List.of("shared:quota[u1]", "shared:quota[u2]"), shared.asked, "the breaker stays local");
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("api").state());
  }

  @Test
  void aSystemPropertyChoosesTheBackendOfABreaker() {
    RecordingBackend shared = new RecordingBackend();
    Registry registry = Registry.builder()
        .timeSource(new ManualTimeSource())
        .backend("shared", shared)
        .systemProperties(Map.of("brace.circuitbreaker.api.backend", "shared"))
        .build();
    registry.resolve(call());
    assertEquals(List.of("shared:api"), shared.asked);
  }

  @Test
  void aBackendNoOneGaveFailsWhenTheInstanceIsCreated() {
    Registry registry = Registry.builder()
        .timeSource(new ManualTimeSource())
        .environment(Map.of("BRACE_CIRCUITBREAKER_API_BACKEND", "redis"))
        .build();
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.resolve(call()));
    assertTrue(refused.getMessage().contains("backend = \"redis\""), refused.getMessage());
    assertTrue(refused.getMessage().contains("[local]"), refused.getMessage());
  }

  @Test
  void aBackendNameIsCheckedLikeAnyValue() {
    assertThrows(ConfigurationException.class, () -> CircuitBreakerConfig.builder("api").backend("re dis"));
    assertThrows(IllegalArgumentException.class, () -> Registry.builder().backend("local", new RecordingBackend()));
    assertEquals("local", RateLimitConfig.builder("quota").permits(1).build().backend());
  }

  @Test
  void aLimiterOfAnotherBackendIsAskedForItsTokenUnderATimeoutToo() {
    ForwardingBackend own = new ForwardingBackend();
    Registry registry = Registry.builder()
        .timeSource(new ManualTimeSource())
        .backend("own", own)
        .environment(Map.of("BRACE_RATELIMIT_TIMED_QUOTA_BACKEND", "own"))
        .build();
    ResilientCall guard = registry.resolve(LambdaCalls.builder("C.timed")
        .with(RateLimitConfig.builder("timed-quota").permits(1))
        .with(TimeoutConfig.builder("C.timed").duration("5s"))
        .build());

    assertEquals("ok", LambdaCalls.call(guard, () -> CallKeys.NONE, () -> "ok", null));
    assertThrows(RateLimitedException.class, () -> LambdaCalls.call(guard, () -> CallKeys.NONE, () -> "again", null),
        "one permit per second: the second call is refused by the backend's limiter");
    assertEquals(2, own.acquired);
  }

  @Test
  void aLimiterOfAnotherBackendIsAskedTheStagedWayWithoutATimeout() {
    ForwardingBackend own = new ForwardingBackend();
    Registry registry = Registry.builder()
        .timeSource(new ManualTimeSource())
        .backend("own", own)
        .environment(Map.of("BRACE_RATELIMIT_PLAIN_QUOTA_BACKEND", "own"))
        .build();
    ResilientCall guard = registry.resolve(LambdaCalls.builder("C.plain")
        .with(RateLimitConfig.builder("plain-quota").permits(1))
        .build());

    assertEquals("ok", LambdaCalls.call(guard, () -> CallKeys.NONE, () -> "ok", null));
    assertThrows(RateLimitedException.class, () -> LambdaCalls.call(guard, () -> CallKeys.NONE, () -> "again", null));
    assertEquals(2, own.acquired, "each call asked the backend's limiter, not a local bucket");
  }

  @Test
  void aRegistryNamesItsBackendsAndABackendThatCannotTellReportsNoStatus() {
    RecordingBackend shared = new RecordingBackend();
    ForwardingBackend own = new ForwardingBackend();
    Registry registry = Registry.builder()
        .timeSource(new ManualTimeSource())
        .backend("shared", shared)
        .backend("own", own)
        .environment(Map.of("BRACE_CIRCUITBREAKER_API_BACKEND", "shared"))
        .build();

    assertEquals(List.of("shared", "own"), List.copyOf(registry.backends().keySet()), "in the order given");
    assertEquals(shared, registry.backends().get("shared"));
    assertThrows(UnsupportedOperationException.class, () -> registry.backends().put("other", own));
    assertTrue(shared.status().isEmpty(), "a backend that says nothing of its store");
    ResilientCall guard = registry.resolve(LambdaCalls.builder("C.call")
        .with(CircuitBreakerConfig.builder("api"))
        .build());
    assertEquals("ok", LambdaCalls.call(guard, () -> CallKeys.NONE, () -> "ok", null));
    assertTrue(registry.circuitBreaker("api").backendAvailable(), "an instance that cannot tell is taken as reachable");
  }
}
