package dev.brace.redis;

import dev.brace.runtime.EventKind;
import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.spi.EventSink;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The connection every Redis instance of one backend shares, and its health. A script either
 * answers within the command timeout or the call goes on without Redis ({@link Unavailable}).
 * The first failure starts an outage, reported once with {@code backend.unavailable}; during it
 * only one call per recheck interval tries Redis, the others go straight to their fallback, and
 * the first success ends it with {@code backend.recovered}.
 */
final class RedisStore implements AutoCloseable {
  private final RedisClient client;
  private final RedisBackendOptions options;
  private final long timeoutNanos;
  private final long recheckNanos;
  private final boolean ownsConnection;
  private volatile StatefulRedisConnection<String, String> connection;

  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicLong nextTry = new AtomicLong();
  private volatile long downSince;
  private volatile Throwable lastFailure;
  private final AtomicBoolean connecting = new AtomicBoolean();
  private final ExecutorService connector;
  private final Set<Observer> observers = new CopyOnWriteArraySet<>();

  /** A registry that has instances on this store, and the name it gave the backend. */
  record Observer(EventSink events, String backendName) {}

  /** Redis did not answer in time, or could not be reached; the call goes on without it. */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    Unavailable(Throwable cause) {
      super(cause);
    }
  }

  RedisStore(RedisClient client, StatefulRedisConnection<String, String> connection, RedisBackendOptions options) {
    this.client = client;
    this.connection = connection;
    this.ownsConnection = client != null;
    this.options = options;
    this.timeoutNanos = options.commandTimeout().toNanos();
    this.recheckNanos = options.recheckInterval().toNanos();
    this.connector = client == null
        ? null
        : Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "brace-redis-connect");
            thread.setDaemon(true);
            return thread;
          });
  }

  RedisBackendOptions options() {
    return options;
  }

  void observedBy(EventSink events, String backendName) {
    Observer observer = new Observer(events, backendName);
    if (observers.add(observer) && down.get()) {
      // An outage that began before this registry had instances here: it hears of it once too.
      unavailable(observer, lastFailure);
    }
  }

  /** @return whether this call should ask Redis: always, except during an outage between rechecks */
  boolean shouldTry() {
    if (!down.get()) {
      return true;
    }
    long now = System.nanoTime();
    long at = nextTry.get();
    return now - at >= 0 && nextTry.compareAndSet(at, now + recheckNanos);
  }

  /**
   * Runs a script on one key.
   *
   * @return the script's array reply: {@link Long}s and {@link String}s
   * @throws Unavailable when Redis did not answer within the command timeout or failed
   */
  @SuppressWarnings("unchecked")
  List<Object> eval(Script script, String key, String... args) throws Unavailable {
    StatefulRedisConnection<String, String> current = connection;
    if (current == null) {
      connectLater();
      throw failed(new RedisException("not connected to Redis yet"));
    }
    String[] keys = {key};
    try {
      List<Object> reply;
      try {
        reply = await(current.async().evalsha(script.sha, ScriptOutputType.MULTI, keys, args));
      } catch (ExecutionException missing) {
        if (!(missing.getCause() instanceof RedisNoScriptException)) {
          throw missing;
        }
        // First use on this server, or it restarted: send the text once, Redis caches it again.
        reply = await(current.async().eval(script.text, ScriptOutputType.MULTI, keys, args));
      }
      succeeded();
      return reply;
    } catch (ExecutionException failure) {
      throw failed(failure.getCause());
    } catch (TimeoutException | RuntimeException failure) {
      throw failed(failure);
    } catch (InterruptedException interrupted) {
      // Not Redis's fault: no outage, but this call goes on without it.
      Thread.currentThread().interrupt();
      throw new Unavailable(interrupted);
    }
  }

  private <T> T await(RedisFuture<T> reply) throws ExecutionException, TimeoutException, InterruptedException {
    try {
      return reply.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException late) {
      reply.cancel(true);
      throw late;
    }
  }

  private Unavailable failed(Throwable cause) {
    nextTry.set(System.nanoTime() + recheckNanos);
    if (down.compareAndSet(false, true)) {
      downSince = System.nanoTime();
      lastFailure = cause;
      for (Observer observer : observers) {
        unavailable(observer, cause);
      }
    }
    return new Unavailable(cause);
  }

  private void unavailable(Observer observer, Throwable cause) {
    if (observer.events().enabled(EventKind.BACKEND_UNAVAILABLE)) {
      observer.events().emit(
          EventKind.BACKEND_UNAVAILABLE, observer.backendName(),
          "exception", cause == null ? null : cause.getClass().getName(),
          "message", cause == null ? null : cause.getMessage(),
          "fallback", options.whenUnavailable() == WhenUnavailable.LOCAL ? "local" : "refuse");
    }
  }

  private void succeeded() {
    if (down.get() && down.compareAndSet(true, false)) {
      long outageMillis = (System.nanoTime() - downSince) / 1_000_000;
      for (Observer observer : observers) {
        if (observer.events().enabled(EventKind.BACKEND_RECOVERED)) {
          observer.events().emit(EventKind.BACKEND_RECOVERED, observer.backendName(), "outage_ms", outageMillis);
        }
      }
    }
  }

  /** Connects on a background thread, so no call waits for a connection to be set up. */
  private void connectLater() {
    if (client == null || !connecting.compareAndSet(false, true)) {
      return;
    }
    connector.execute(() -> {
      try {
        connection = client.connect();
      } catch (RuntimeException unreachable) {
        // Still down; the next recheck tries again.
      } finally {
        connecting.set(false);
      }
    });
  }

  /** Tries to connect now, for a backend created with a client; a failure starts it in an outage. */
  void connectNow() {
    try {
      connection = client.connect();
    } catch (RuntimeException unreachable) {
      failed(unreachable);
    }
  }

  @Override
  public void close() {
    if (connector != null) {
      connector.shutdownNow();
    }
    StatefulRedisConnection<String, String> current = connection;
    if (ownsConnection && current != null) {
      current.close();
    }
  }
}
