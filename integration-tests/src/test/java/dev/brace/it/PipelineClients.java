package dev.brace.it;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** Interfaces for the tests of issue 14's items, each as a user would meet the bug. */
final class PipelineClients {
  private PipelineClients() {}

  interface Metered {
    @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
    @CircuitBreaker(name = "metered", failureThreshold = 2)
    @Fallback(method = "fallback")
    String call(String id) throws IOException;

    default String fallback(String id, Exception cause) {
      return "fallback";
    }
  }

  interface DefaultBreaker {
    @CircuitBreaker(name = "shared-defaults")
    String call() throws IOException;
  }

  interface Lookup {
    @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
    String lookup(String key);
  }

  interface Narrow {
    @CircuitBreaker(name = "narrow", failureRate = 0.5)
    String call() throws IOException;
  }

  interface Widened {
    @Fallback(method = "offline", on = IOException.class)
    String call() throws IOException;

    default String offline(IOException cause) {
      return "offline:" + cause.getMessage();
    }
  }

  interface Unwrapping {
    @Fallback(method = "offline", on = IOException.class)
    String call() throws Exception;

    default String offline(IOException cause) {
      return "offline:" + cause.getMessage();
    }
  }

  interface UnkeyedBreaker {
    @CircuitBreaker(name = "keyed-by-config")
    String call(String id) throws IOException;
  }

  interface UnkeyedLimiter {
    @RateLimit(name = "limited-by-config", permits = 5)
    String call(String id) throws IOException;
  }

  /** A key source whose accessor counts its calls and may give null. */
  static final class Target {
    final AtomicInteger reads = new AtomicInteger();
    private final String host;

    Target(String host) {
      this.host = host;
    }

    String host() {
      reads.incrementAndGet();
      return host;
    }
  }

  interface ByHost {
    @CircuitBreaker(name = "by-host", key = "{target.host}")
    String fetch(Target target) throws IOException;

    @CircuitBreaker(name = "by-host", key = "{target.host}")
    CompletableFuture<String> fetchAsync(Target target);
  }

  interface Evicting {
    @CircuitBreaker(name = "evicting", failureThreshold = 1, resetTimeout = "1m", key = "{key}", maxKeys = 3)
    String call(String key) throws IOException;
  }

  interface EvictingLimiter {
    @RateLimit(name = "evicting-limiter", permits = 1, per = "10s", maxWait = "10s", key = "{key}", maxKeys = 3)
    CompletableFuture<String> call(String key);
  }

  interface Switched {
    @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
    String call() throws IOException;
  }

  interface Slow {
    @Timeout("1s")
    String call() throws IOException;

    @Timeout("1s")
    CompletableFuture<String> callAsync();
  }

  interface Abandoning {
    @CircuitBreaker(name = "abandoning", failureThreshold = 1)
    @Timeout(value = "1m", mode = Timeout.Mode.ABANDON)
    String call() throws IOException;
  }

  interface Crowded {
    @Bulkhead(name = "crowded-by-time", maxConcurrent = 1, maxWait = "1h")
    String call(String id) throws InterruptedException;
  }
}
