package dev.brace.redis;

import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.CircuitEvents;
import dev.brace.runtime.spi.OutcomeClassifier;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A circuit breaker whose state is one Redis hash, moved only by Lua scripts on the server's clock:
 * every machine sees one circuit. Admitting a call is one script; recording its outcome is another
 * (skipped for a success while CLOSED in classic mode with no failures counted). OPEN moves to
 * HALF_OPEN lazily, on the first call after the reset timeout on any machine, and the single probe
 * is a lease in the hash, so a prober that dies frees it when the lease expires. The machine whose
 * script made a transition reports it; the others see the new state on their next call.
 *
 * <p>Rate mode keeps a ring of buckets in the hash: time buckets of {@code window / windowBuckets},
 * or, for a window of the last N calls, buckets of N / windowBuckets calls (the window then holds
 * between N minus one bucket and N outcomes). With {@code slowCall} set the same ring also counts
 * slow outcomes (judged here, by the {@link OutcomeClassifier}, and sent with the outcome), in
 * classic mode too.
 *
 * <p>While Redis is unavailable the call is decided by a local breaker of the same settings, or
 * refused, as configured. A failure to reach Redis is never an outcome of the protected call.
 */
final class RedisCircuitBreaker implements CircuitBreakerInstance {
  private static final long CLASSIC = 0;

  private final CircuitBreakerConfig config;
  private final RedisStore store;
  private final String backendName;
  private final CircuitEvents events;
  private final OutcomeClassifier classifier;
  private final CircuitBreakerInstance local;
  private final String key;
  private final String tokenPrefix = UUID.randomUUID() + ":";
  private final AtomicLong tokens = new AtomicLong();
  private final String leaseMicros;
  private final String ttlMillis;
  /** ARGV[4..] of the record script, the same for every outcome. */
  private final String[] settings;

  RedisCircuitBreaker(CircuitBreakerConfig config, BackendContext context, RedisStore store) {
    this.config = config;
    this.store = store;
    this.backendName = context.backendName();
    this.events = new CircuitEvents(context.events(), config);
    this.classifier = new OutcomeClassifier(config);
    this.local = store.options().whenUnavailable() == WhenUnavailable.LOCAL ? context.localCircuitBreaker(config) : null;
    this.key = store.options().keyPrefix() + "circuit:" + config.name();
    this.leaseMicros = Long.toString(store.options().probeLease().toNanos() / 1_000);
    Duration longest = max(max(config.resetTimeout(), config.window()), store.options().probeLease());
    this.ttlMillis = Long.toString(longest.multipliedBy(2).plusMinutes(1).toMillis());
    boolean lastCalls = config.windowCalls() > 0;
    long width;
    long buckets;
    if (lastCalls) {
      width = (config.windowCalls() + config.windowBuckets() - 1) / config.windowBuckets();
      buckets = (config.windowCalls() + width - 1) / width;
    } else {
      width = Math.max(1, config.window().toNanos() / 1_000 / config.windowBuckets());
      buckets = config.windowBuckets();
    }
    this.settings = new String[] {
        Integer.toString(config.failureThreshold()),
        Integer.toString(config.successThreshold()),
        Long.toString(config.resetTimeout().toNanos() / 1_000),
        config.rateMode() ? Double.toString(config.failureRate()) : Long.toString(CLASSIC),
        Integer.toString(config.minimumCalls()),
        Long.toString(buckets),
        Long.toString(width),
        lastCalls ? "n" : "t",
        ttlMillis,
        config.judgesSlowCalls() ? Double.toString(config.slowCallRate()) : "0"};
  }

  @Override
  public String name() {
    return config.name();
  }

  @Override
  public OutcomeClassifier classifier() {
    return classifier;
  }

  @Override
  public Object acquire() {
    String token = tokenPrefix + tokens.incrementAndGet();
    List<Object> reply;
    try {
      reply = store.eval(Script.CIRCUIT_ACQUIRE, key, leaseMicros, token, ttlMillis);
    } catch (RedisStore.Unavailable unavailable) {
      return fallback(unavailable).acquire();
    }
    switch (((Long) reply.get(0)).intValue()) {
      case 1:
        boolean quiet = !config.windowed() && (Long) reply.get(2) == 0;
        return new Ticket(this, (Long) reply.get(1), token, false, quiet);
      case 2:
        if ((Long) reply.get(2) == 1) {
          events.halfOpen();
        }
        return new Ticket(this, (Long) reply.get(1), token, true, false);
      case 0:
        throw events.rejected(CircuitState.OPEN, Duration.ofNanos((Long) reply.get(1) * 1_000));
      default:
        throw events.rejected(CircuitState.HALF_OPEN, null);
    }
  }

  @Override
  public void record(Object ticket, boolean failure, boolean slow, Throwable cause) {
    Ticket admitted = own(ticket);
    if (!failure && !slow && admitted.quiet) {
      return;
    }
    List<Object> reply;
    try {
      String[] arguments = new String[4 + settings.length];
      arguments[0] = Long.toString(admitted.generation);
      arguments[1] = admitted.token;
      arguments[2] = failure ? "1" : "0";
      System.arraycopy(settings, 0, arguments, 3, settings.length);
      arguments[3 + settings.length] = slow ? "1" : "0";
      reply = store.eval(Script.CIRCUIT_RECORD, key, arguments);
    } catch (RedisStore.Unavailable unavailable) {
      // The outcome is lost, not turned into a failure of the dependency.
      return;
    }
    switch (((Long) reply.get(0)).intValue()) {
      case 1:
        events.openedByThreshold(CircuitState.CLOSED, ((Long) reply.get(1)).intValue(), cause);
        break;
      case 2:
        long calls = (Long) reply.get(2);
        events.openedByRates(
            config.rateMode() ? (double) (Long) reply.get(1) / calls : Double.NaN,
            config.judgesSlowCalls() ? (double) (Long) reply.get(3) / calls : Double.NaN,
            calls,
            cause);
        break;
      case 3:
        events.closed(CircuitState.HALF_OPEN);
        break;
      case 5:
        // One failed probe is enough, whatever the mode; reported the classic way.
        if (failure) {
          events.openedByThreshold(CircuitState.HALF_OPEN, 1, cause);
        } else {
          events.openedBySlowProbe();
        }
        break;
      default:
        break;
    }
  }

  @Override
  public void release(Object ticket) {
    Ticket admitted = own(ticket);
    if (admitted.probe) {
      try {
        store.eval(Script.CIRCUIT_RELEASE, key, Long.toString(admitted.generation), admitted.token);
      } catch (RedisStore.Unavailable unavailable) {
        // The lease expires by itself.
      }
    }
  }

  @Override
  public CircuitState state() {
    List<Object> read = read();
    if (read == null) {
      return local == null ? CircuitState.CLOSED : local.state();
    }
    switch ((String) read.get(0)) {
      case "O":
        return CircuitState.OPEN;
      case "H":
        return CircuitState.HALF_OPEN;
      default:
        return CircuitState.CLOSED;
    }
  }

  @Override
  public Optional<Duration> retryAfter() {
    List<Object> read = read();
    if (read == null) {
      return local == null ? Optional.empty() : local.retryAfter();
    }
    return "O".equals(read.get(0)) ? Optional.of(Duration.ofNanos((Long) read.get(1) * 1_000)) : Optional.empty();
  }

  @Override
  public void reset() {
    if (local != null) {
      local.reset();
    }
    try {
      List<Object> reply = store.eval(Script.CIRCUIT_RESET, key, ttlMillis);
      if (!"C".equals(reply.get(0))) {
        events.closed("O".equals(reply.get(0)) ? CircuitState.OPEN : CircuitState.HALF_OPEN);
      }
    } catch (RedisStore.Unavailable unavailable) {
      // Reported by the store; the shared circuit is left as it is.
    }
  }

  private List<Object> read() {
    try {
      return store.eval(Script.CIRCUIT_READ, key);
    } catch (RedisStore.Unavailable unavailable) {
      return null;
    }
  }

  private CircuitBreakerInstance fallback(RedisStore.Unavailable unavailable) {
    if (local == null) {
      throw CircuitOpenException.backendUnavailable(name(), backendName, unavailable.getCause());
    }
    return local;
  }

  private Ticket own(Object ticket) {
    if (!(ticket instanceof Ticket) || ((Ticket) ticket).owner != this) {
      throw new IllegalArgumentException("ticket not issued by " + this + ": " + ticket);
    }
    return (Ticket) ticket;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  @Override
  public String toString() {
    return "RedisCircuitBreaker[" + name() + ", " + key + "]";
  }

  /** The stretch of the shared circuit a call was admitted in, and whether it holds the probe lease. */
  private static final class Ticket implements CircuitBreakerInstance.Ticket {
    final RedisCircuitBreaker owner;
    final long generation;
    final String token;
    final boolean probe;
    /** Admitted CLOSED in classic mode with no failures counted: a success changes nothing. */
    final boolean quiet;

    Ticket(RedisCircuitBreaker owner, long generation, String token, boolean probe, boolean quiet) {
      this.owner = owner;
      this.generation = generation;
      this.token = token;
      this.probe = probe;
      this.quiet = quiet;
    }

    @Override
    public CircuitBreakerInstance owner() {
      return owner;
    }
  }
}
