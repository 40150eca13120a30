package dev.brace.redis;

import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.BackendStatus;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.spi.EventSink;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The connection every Redis instance of one backend shares, and its health. A script either
 * answers within the command timeout or the call goes on without Redis ({@link Unavailable}).
 * The first failure starts an outage, reported once with {@code backend.unavailable}; during it
 * only one call per recheck interval tries Redis, the others go straight to their fallback, and
 * the first success ends it with {@code backend.recovered}. On a cluster each node has its own
 * outage (the events name it in {@code node}), so instances on the other nodes are not affected.
 * A health check ({@link #status()}) asks a server or node only when no call has lately.
 */
final class RedisStore implements AutoCloseable {
  private final Supplier<RedisLink> connector;
  private final RedisBackendOptions options;
  private final long timeoutNanos;
  private final long recheckNanos;
  private volatile RedisLink link;

  /** The single server's health, or the whole cluster's before it is first reached. */
  private final Health whole = new Health(null);
  private final ConcurrentHashMap<String, Health> nodes = new ConcurrentHashMap<>();
  private final AtomicBoolean connecting = new AtomicBoolean();
  private final ExecutorService connectorThread;
  private final Set<Observer> observers = new CopyOnWriteArraySet<>();

  /** A registry that has instances on this store, and the name it gave the backend. */
  record Observer(EventSink events, String backendName) {}

  /**
   * Redis did not answer in time, or could not be reached, or is in an outage and this call is not
   * the one that rechecks it; the call goes on without Redis.
   */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param cause what Redis failed with; null when the call did not try it (outage, between rechecks) */
    Unavailable(Throwable cause) {
      // No stack trace: during an outage one is made per call, and the cause has the useful one.
      super(cause == null ? "not tried during an outage" : cause.toString(), cause, false, false);
    }
  }

  /**
   * @param connector opens the link, on a background thread after a failure; null when the
   *     application gave the connection ({@code link} then)
   * @param link the application's connection, or null to open one with {@code connector}
   */
  RedisStore(Supplier<RedisLink> connector, RedisLink link, RedisBackendOptions options) {
    this.connector = connector;
    this.link = link;
    this.options = options;
    this.timeoutNanos = options.commandTimeout().toNanos();
    this.recheckNanos = options.recheckInterval().toNanos();
    this.connectorThread = connector == null
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
    if (observers.add(observer)) {
      // An outage that began before this registry had instances here: it hears of it once too.
      if (whole.down()) {
        unavailable(observer, whole);
      }
      for (Health node : nodes.values()) {
        if (node.down()) {
          unavailable(observer, node);
        }
      }
    }
  }

  /**
   * Runs a script on one key, unless the key's server (or cluster node) is in an outage and this
   * call is not the one that rechecks it.
   *
   * <p>An interrupt that arrives while the command is in flight does not abandon it: the script
   * may already have run, and a reply nobody reads would be a token taken for no one or a probe
   * lease nobody returns. The call keeps waiting for the reply, still within the command timeout,
   * then sets the interrupt flag again; the caller decides as if the interrupt had come just after
   * the reply (a rate limiter that must wait for its token refuses at once and gives it back).
   * An interrupt is never an outage.
   *
   * @return the script's array reply: {@link Long}s and {@link String}s
   * @throws Unavailable when Redis was not tried, did not answer within the command timeout, or
   *     failed
   */
  List<Object> eval(Script script, String key, String... args) throws Unavailable {
    RedisLink current = link;
    Health health = current == null ? whole : health(current.node(key));
    if (!health.shouldTry()) {
      throw new Unavailable(null);
    }
    long sent = System.nanoTime();
    if (current == null) {
      connectLater();
      throw failed(whole, sent, new RedisException("not connected to Redis yet"));
    }
    long deadline = sent + timeoutNanos;
    try {
      List<Object> reply;
      try {
        reply = await(current.evalsha(script, key, args), deadline);
      } catch (ExecutionException missing) {
        if (!(missing.getCause() instanceof RedisNoScriptException)) {
          throw missing;
        }
        // First use on this server (or node), or it restarted: send the text once, Redis caches it.
        reply = await(current.eval(script, key, args), deadline);
      }
      succeeded(health, sent);
      return reply;
    } catch (ExecutionException failure) {
      throw failed(health, sent, failure.getCause());
    } catch (TimeoutException | RuntimeException failure) {
      throw failed(health, sent, failure);
    }
  }

  /** Waits for a reply until the deadline; an interrupt meanwhile is held until then (see eval). */
  private static <T> T await(RedisFuture<T> reply, long deadline) throws ExecutionException, TimeoutException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return reply.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException held) {
          interrupted = true;
        }
      }
    } catch (TimeoutException late) {
      // Not sent yet (disconnected, queued): never sent. Sent: the server may still run it.
      reply.cancel(true);
      throw late;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private Health health(String node) {
    return node == null ? whole : nodes.computeIfAbsent(node, Health::new);
  }

  /**
   * Starts an outage, unless one is on, or the failed command was sent before the last one ended
   * (it belongs to that outage: its answer came late, or its connection dropped back then).
   *
   * @param sent when the failed command was sent
   */
  private Unavailable failed(Health health, long sent, Throwable cause) {
    long now = System.nanoTime();
    health.nextTry.set(now + recheckNanos);
    Phase phase = health.phase.get();
    if (!phase.down() && sent - phase.since() >= 0
        && health.phase.compareAndSet(phase, new Phase(true, now, Instant.now()))) {
      health.lastFailure = cause;
      for (Observer observer : observers) {
        unavailable(observer, health);
      }
    }
    return new Unavailable(cause);
  }

  private void unavailable(Observer observer, Health health) {
    if (observer.events().enabled(EventKind.BACKEND_UNAVAILABLE)) {
      Throwable cause = health.lastFailure;
      observer.events().emit(
          EventKind.BACKEND_UNAVAILABLE, observer.backendName(),
          "node", health.node,
          "exception", cause == null ? null : cause.getClass().getName(),
          "message", cause == null ? null : cause.getMessage(),
          "fallback", fallback());
    }
  }

  /** @param sent when the command that succeeded was sent */
  private void succeeded(Health health, long sent) {
    health.answeredAt = System.nanoTime();
    recovered(health, sent);
    if (health != whole) {
      // A cluster that could not be reached at first is reachable now.
      recovered(whole, sent);
    }
  }

  /**
   * Ends an outage, if one is on and the command that succeeded was sent after it began: a reply to
   * a command sent before (read by its caller just after another command failed) says nothing about
   * whether Redis is back, and would end the outage the moment it began.
   */
  private void recovered(Health health, long sent) {
    Phase phase = health.phase.get();
    if (!phase.down() || sent - phase.since() < 0) {
      return;
    }
    long now = System.nanoTime();
    if (health.phase.compareAndSet(phase, new Phase(false, now, Instant.now()))) {
      long outageMillis = (now - phase.since()) / 1_000_000;
      for (Observer observer : observers) {
        if (observer.events().enabled(EventKind.BACKEND_RECOVERED)) {
          observer.events().emit(EventKind.BACKEND_RECOVERED, observer.backendName(), "node", health.node, "outage_ms", outageMillis);
        }
      }
    }
  }

  /**
   * @param key a key a script would run on
   * @return false while the server (or the cluster node serving the key) is in an outage, as the
   *     calls found it; no command is sent
   */
  boolean reachable(String key) {
    if (whole.down()) {
      return false;
    }
    RedisLink current = link;
    String node = current == null ? null : current.node(key);
    Health health = node == null ? null : nodes.get(node);
    return health == null || !health.down();
  }

  /**
   * The outages now. A server or node no call has reached within the recheck interval is asked
   * first, with a script that touches nothing, through {@link #eval} like any call (so a failure
   * starts an outage and a success ends one, and during an outage it is asked at most once per
   * recheck interval): a health check then sees a server that went away while nothing called it,
   * or came back, and costs nothing while calls flow. A cluster is judged by the nodes that serve
   * slots now, so the address of a primary that failed over is no longer counted.
   *
   * @return every outage, and the fallback in force
   */
  BackendStatus status() {
    RedisLink current = link;
    String probePrefix = options.keyPrefix() + "probe";
    List<String> probes = current == null ? List.of(probePrefix) : current.probeKeys(probePrefix);
    long now = System.nanoTime();
    for (String probe : probes) {
      Health health = current == null ? whole : health(current.node(probe));
      if (health.down() || now - health.answeredAt - recheckNanos >= 0) {
        try {
          eval(Script.PROBE, probe);
        } catch (Unavailable unavailable) {
          // Now in an outage (or still, between rechecks): reported below.
        }
      }
    }
    List<BackendStatus.Outage> outages = new ArrayList<>();
    if (whole.down()) {
      outages.add(whole.outage());
    }
    current = link;
    if (current != null) {
      for (String probe : current.probeKeys(probePrefix)) {
        String node = current.node(probe);
        Health health = node == null ? null : nodes.get(node);
        if (health != null && health.down()) {
          outages.add(health.outage());
        }
      }
    }
    return new BackendStatus(outages, fallback());
  }

  /** @return what instances do during an outage, as events and health checks name it */
  private String fallback() {
    return options.whenUnavailable() == WhenUnavailable.LOCAL ? BackendStatus.LOCAL : BackendStatus.REFUSE;
  }

  /** Connects on a background thread, so no call waits for a connection to be set up. */
  private void connectLater() {
    if (connector == null || !connecting.compareAndSet(false, true)) {
      return;
    }
    connectorThread.execute(() -> {
      try {
        link = connector.get();
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
      link = connector.get();
    } catch (RuntimeException unreachable) {
      failed(whole, System.nanoTime(), unreachable);
    }
  }

  @Override
  public void close() {
    if (connectorThread != null) {
      connectorThread.shutdownNow();
    }
    RedisLink current = link;
    if (current != null) {
      current.close();
    }
  }

  /**
   * Up or in an outage, since when ({@link System#nanoTime()}, and on the wall clock for health
   * checks); replaced whole, so all change at once.
   */
  private record Phase(boolean down, long since, Instant at) {}

  /** One server's (or cluster node's) health: whether it is in an outage, and when to try it again. */
  private final class Health {
    /** The cluster node ({@code host:port}); null for a single server. */
    final String node;
    final AtomicReference<Phase> phase = new AtomicReference<>(new Phase(false, System.nanoTime(), Instant.now()));
    final AtomicLong nextTry = new AtomicLong();
    volatile Throwable lastFailure;
    /**
     * When a command last succeeded here ({@link System#nanoTime()}); at first half the range of
     * {@code long} ago (differences of nanoTime readings wrap consistently), so a health check asks.
     */
    volatile long answeredAt = System.nanoTime() - Long.MAX_VALUE / 2;

    Health(String node) {
      this.node = node;
    }

    boolean down() {
      return phase.get().down();
    }

    /** @return this outage as a health check reports it */
    BackendStatus.Outage outage() {
      Throwable cause = lastFailure;
      return new BackendStatus.Outage(node, phase.get().at(), cause == null ? null : cause.toString());
    }

    /** @return whether this call should ask Redis: always, except during an outage between rechecks */
    boolean shouldTry() {
      if (!down()) {
        return true;
      }
      long now = System.nanoTime();
      long at = nextTry.get();
      return now - at >= 0 && nextTry.compareAndSet(at, now + recheckNanos);
    }
  }
}
