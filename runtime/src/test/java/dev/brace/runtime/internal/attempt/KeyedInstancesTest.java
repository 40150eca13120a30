package dev.brace.runtime.internal.attempt;

import dev.brace.runtime.support.LambdaCalls;

import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Keyed breakers and limiters: one instance per key, bounded, created once. */
class KeyedInstancesTest {

  @Test
  void concurrentFirstUseOfOneKeyCreatesOneInstance() throws Exception {
    AtomicInteger created = new AtomicInteger();
    KeyedInstances<Object> instances = new KeyedInstances<>("n", 100, name -> {
      created.incrementAndGet();
      return new Object();
    }, instance -> false);
    Set<Object> seen = ConcurrentHashMap.newKeySet();
    CyclicBarrier start = new CyclicBarrier(16);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        seen.add(instances.get("same-key"));
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(1, created.get());
    assertEquals(1, seen.size());
  }

  @Test
  void pastMaxKeysTheLeastRecentlyUsedKeysAreEvicted() {
    KeyedInstances<String> instances = new KeyedInstances<>("n", 10, name -> name, name -> false);
    for (int i = 0; i < 10; i++) {
      instances.get("k" + i);
    }
    instances.get("k0");
    String k0 = instances.get("k0");

    instances.get("k10");

    assertTrue(instances.size() <= 10, "bounded: " + instances.size());
    assertSame(k0, instances.snapshot().get("k0"), "recently used k0 survived");
    assertTrue(!instances.snapshot().containsKey("k1"), "k1 was the least recently used");
    assertTrue(instances.snapshot().containsKey("k10"));
  }

  @Test
  void evictionTakesIdleMembersBeforeBusyOnesEvenWhenTheBusyAreOlder() {
    java.util.Set<String> busy = java.util.Set.of("n[k0]", "n[k1]");
    KeyedInstances<String> instances = new KeyedInstances<>("n", 10, name -> name, busy::contains);
    for (int i = 0; i < 10; i++) {
      instances.get("k" + i);
    }

    instances.get("k10");

    assertTrue(instances.snapshot().containsKey("k0"), "the oldest, but busy");
    assertTrue(instances.snapshot().containsKey("k1"), "busy");
    assertTrue(!instances.snapshot().containsKey("k2"), "the oldest idle one went first");
    assertTrue(instances.size() <= 10);
  }

  @Test
  void whenEveryMemberIsBusyTheBoundStillHolds() {
    KeyedInstances<String> instances = new KeyedInstances<>("n", 10, name -> name, name -> true);
    for (int i = 0; i < 50; i++) {
      instances.get("k" + i);
    }
    assertTrue(instances.size() <= 10, "bounded: " + instances.size());
  }

  @Test
  void anOpenKeyedBreakerOutlivesIdleKeysThroughARegistry() {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock).build();
    ResilientCall guard = registry.resolve(LambdaCalls.builder("C.m")
        .with(CircuitBreakerConfig.builder("hosts").failureThreshold(1).key("{host}").maxKeys(10))
        .build());
    assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> CallKeys.of("hot", null), () -> {
      throw new IOException("hot is down");
    }, null));
    for (int i = 0; i < 30; i++) {
      String host = "idle" + i;
      assertEquals("x", LambdaCalls.call(guard, () -> CallKeys.of(host, null), () -> "x", null));
    }

    assertEquals(CircuitState.OPEN, registry.circuitBreaker("hosts[hot]").state(), "not dropped and re-made CLOSED");
    assertThrows(CircuitOpenException.class, () -> LambdaCalls.call(guard, () -> CallKeys.of("hot", null), () -> "x", null));
  }

  @Test
  void aMissingKeyNamesTheInstance() {
    KeyedInstances<String> instances = new KeyedInstances<>("recs-api", 10, name -> name, name -> false);
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> instances.get(null));
    assertTrue(refused.getMessage().contains("recs-api"));
  }

  @Test
  void twoKeysDoNotShareACircuitOrABucket() {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock).build();
    ResilientCall guard = registry.resolve(LambdaCalls.builder("C.m")
        .with(CircuitBreakerConfig.builder("api").failureThreshold(1).key("{host}"))
        .with(RateLimitConfig.builder("quota").permits(1).key("user:{id}"))
        .build());

    assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> CallKeys.of("a", "user:1"), () -> {
      throw new IOException("a is down");
    }, null));
    assertThrows(CircuitOpenException.class, () -> LambdaCalls.call(guard, () -> CallKeys.of("a", "user:2"), () -> "x", null));
    assertEquals("x", LambdaCalls.call(guard, () -> CallKeys.of("b", "user:2"), () -> "x", null));
    assertThrows(RateLimitedException.class, () -> LambdaCalls.call(guard, () -> CallKeys.of("b", "user:2"), () -> "x", null),
        "user:2 spent its token");

    assertEquals(CircuitState.OPEN, registry.circuitBreaker("api[a]").state());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("api[b]").state());
    assertEquals(0, registry.rateLimiter("quota[user:1]").availablePermits());
    assertNotSame(registry.rateLimiter("quota[user:1]"), registry.rateLimiter("quota[user:2]"));
  }

  @Test
  void keyPartsThatAreNullNameTheParameter() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> CallKeys.part(null, "request.host", "RecsClient.fetch"));
    assertTrue(refused.getMessage().contains("{request.host}"));
    assertTrue(refused.getMessage().contains("RecsClient.fetch"));
    assertEquals("42", CallKeys.part(42, "id", "C.m"));
  }
}
