package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.micrometer.BraceMetrics;
import dev.brace.runtime.CircuitState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * brace-redis and brace-micrometer together, as every user of both runs them: a generated
 * wrapper whose breaker lives in a real redis-server, on a registry bound to a MeterRegistry.
 */
class RedisWithMetricsTest {
  private static final String BREAKER = "recs-metered";
  private static final RedisBackendOptions OPTIONS = RedisBackendOptions.defaults().withCommandTimeout(Duration.ofSeconds(2));

  private static RedisServer server;

  interface Recs {
    @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
    @CircuitBreaker(name = BREAKER, failureThreshold = 2, resetTimeout = "1m")
    @Fallback(method = "noRecs")
    String recommendations(String user) throws IOException;

    default String noRecs(String user, Exception cause) {
      return "fallback";
    }
  }

  @BeforeAll
  static void startRedis() {
    server = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aRedisBreakerOnARegistryWithMetricsRecordsEveryOutcomeOnce() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger failFrom = new AtomicInteger(Integer.MAX_VALUE);
    Recs dependency = user -> {
      if (calls.incrementAndGet() >= failFrom.get()) {
        throw new IOException("recs down");
      }
      return "recs:" + user;
    };
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (Fleet machine = new Fleet(server, OPTIONS, Map.of("BRACE_CIRCUITBREAKER_RECS_METERED_BACKEND", "redis"))) {
      try (AutoCloseable bound = BraceMetrics.bind(machine.registry, meters)) {
        Recs client = ResilientRedisWithMetricsTest_Recs.wrap(dependency, machine.registry);

        assertEquals("recs:ada", client.recommendations("ada"), "events: " + machine.events);
        assertEquals(1, calls.get(), "a success is neither retried nor answered by the fallback");

        failFrom.set(2);
        assertEquals("fallback", client.recommendations("ada"), "two failures open the circuit, which refuses the third attempt");
        assertEquals(3, calls.get());
        assertEquals(CircuitState.OPEN, machine.registry.circuitBreaker(BREAKER).state());

        assertEquals(1, meters.get("brace.calls").tags("kind", "call", "outcome", "success").timer().count());
        assertEquals(1, meters.get("brace.calls").tags("kind", "fallback", "outcome", "fallback").timer().count());
        assertEquals(1, meters.get("brace.attempts").tag("outcome", "success").timer().count());
        assertEquals(2, meters.get("brace.attempts").tag("outcome", "failure").timer().count());
        assertEquals(1.0, meters.get("brace.rejections").tags("kind", "circuitbreaker", "name", BREAKER).counter().count());
        assertEquals(1.0, meters.get("brace.circuitbreaker.transitions").tags("name", BREAKER, "from", "closed", "to", "open")
            .counter().count());
        assertEquals(1.0, meters.get("brace.circuitbreaker.state").tag("name", BREAKER).gauge().value(), "1 is OPEN");
      }
    }
  }

}
