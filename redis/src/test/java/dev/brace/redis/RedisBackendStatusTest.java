package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.BackendStatus;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * What a health check learns from the backend ({@code RedisBackend.status()}) and from each
 * instance ({@code backendAvailable()}), against real servers that are stopped and started again.
 */
class RedisBackendStatusTest {
  private static final RedisBackendOptions OPTIONS = RedisBackendOptions.defaults()
      .withCommandTimeout(Duration.ofMillis(500))
      .withRecheckInterval(Duration.ofMillis(100));

  private static Stack<String> quota(Fleet machine, String name) {
    return Stack.<String>builder("Quota.call")
        .rateLimit(name, r -> r.permits(1_000).per("1h").backend("redis"))
        .build(machine.registry);
  }

  /** Asks until the answer is true, as a health check asks again; false after ten seconds. */
  private static boolean eventually(BooleanSupplier answer) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (answer.getAsBoolean()) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  @Test
  void aStoppedServerIsFoundByTheHealthCheckItselfAndItsRestartToo() throws Exception {
    try (RedisServer server = RedisServer.start();
        Fleet machine = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> stack = quota(machine, "status-quota");
      assertEquals("ok", stack.call(() -> "ok"));
      BackendStatus up = machine.backend.status().orElseThrow();
      assertTrue(up.available(), String.valueOf(up));
      assertEquals(BackendStatus.LOCAL, up.fallback());
      assertTrue(machine.registry.rateLimiter("status-quota").backendAvailable());

      Instant stopped = Instant.now();
      server.stop();
      // No call is made: the status asks the server itself, and the outage begins there.
      assertTrue(eventually(() -> !machine.backend.status().orElseThrow().available()), "the outage is seen");
      BackendStatus down = machine.backend.status().orElseThrow();
      assertEquals(1, down.outages().size(), String.valueOf(down));
      BackendStatus.Outage outage = down.outages().get(0);
      assertNull(outage.node(), "a single server is the whole store");
      assertFalse(outage.since().isBefore(stopped.minusMillis(1)), outage.since() + " is after " + stopped);
      assertTrue(outage.cause() != null && outage.cause().contains("Redis"), outage.cause());
      assertFalse(machine.registry.rateLimiter("status-quota").backendAvailable(), "the instance decides locally now");
      assertEquals(1, machine.count("backend.unavailable"), "one outage, however often the status is asked");

      server.restart();
      assertTrue(eventually(() -> machine.backend.status().orElseThrow().available()), "the recovery is seen");
      assertTrue(machine.registry.rateLimiter("status-quota").backendAvailable());
      assertEquals(1, machine.count("backend.recovered"));
    }
  }

  @Test
  void whileCallsReachRedisTheStatusSendsNothing() throws Exception {
    try (RedisServer server = RedisServer.start();
        Fleet machine = new Fleet(server, OPTIONS.withRecheckInterval(Duration.ofMinutes(1)), Map.of())) {
      Stack<String> stack = quota(machine, "quiet-status-quota");
      assertEquals("ok", stack.call(() -> "ok"));
      long scripts = server.scriptCalls();
      for (int i = 0; i < 50; i++) {
        assertTrue(machine.backend.status().orElseThrow().available());
      }
      assertEquals(scripts, server.scriptCalls(), "a call answered within the recheck interval: nothing to ask");
    }
  }

  @Test
  void aRefusingBackendSaysSo() throws Exception {
    try (RedisServer server = RedisServer.start();
        Fleet machine = new Fleet(server, OPTIONS.withWhenUnavailable(WhenUnavailable.REFUSE), Map.of())) {
      BackendStatus status = machine.backend.status().orElseThrow();
      assertTrue(status.available());
      assertEquals(BackendStatus.REFUSE, status.fallback());
      assertFalse(status.decidesLocally());
    }
  }

  @Test
  void onAClusterANodeThatStopsIsReportedAloneAndOnlyItsInstancesAreUnavailable() throws Exception {
    try (RedisCluster cluster = RedisCluster.start(3);
        Fleet machine = new Fleet(cluster, OPTIONS, Map.of())) {
      List<String> names = cluster.oneNamePerNode("status-node-quota-", name -> "brace:ratelimit:" + name);
      for (String name : names) {
        assertEquals("ok", quota(machine, name).call(() -> "ok"));
      }
      assertTrue(machine.backend.status().orElseThrow().available());

      RedisServer stopped = cluster.nodeOf("brace:ratelimit:" + names.get(1));
      stopped.stop();
      assertTrue(eventually(() -> !machine.backend.status().orElseThrow().available()), "the node's outage is seen");
      List<BackendStatus.Outage> outages = machine.backend.status().orElseThrow().outages();
      assertEquals(1, outages.size(), String.valueOf(outages));
      assertEquals("127.0.0.1:" + stopped.port(), outages.get(0).node());
      assertTrue(machine.registry.rateLimiter(names.get(0)).backendAvailable());
      assertFalse(machine.registry.rateLimiter(names.get(1)).backendAvailable());
      assertTrue(machine.registry.rateLimiter(names.get(2)).backendAvailable());

      stopped.restart();
      assertTrue(eventually(() -> machine.backend.status().orElseThrow().available()), "the node's recovery is seen");
      assertTrue(machine.registry.rateLimiter(names.get(1)).backendAvailable());
    }
  }
}
