package dev.brace.redis;

import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.CircuitEvents;
import dev.brace.runtime.spi.EventSink;
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

  private final String name;
  private final RedisStore store;
  private final String backendName;
  private final EventSink eventSink;
  private final CircuitBreakerInstance local;
  private final String key;
  private final String tokenPrefix = UUID.randomUUID() + ":";
  private final AtomicLong tokens = new AtomicLong();
  private final String leaseMicros;
  /** Read once per decision, so none runs on half of one configuration and half of another. */
  private volatile Settings settings;

  /** One version of the settings: what judges outcomes, names them in events, and what the scripts take. */
  private static final class Settings {
    final CircuitBreakerConfig config;
    final CircuitEvents events;
    final OutcomeClassifier classifier;
    final String ttlMillis;
    /** ARGV[4..13] of the record script, the same for every outcome. */
    final String[] arguments;
    /** ARGV[15]: what the counts of the window mean. */
    final String shape;

    Settings(CircuitBreakerConfig config, EventSink events, RedisBackendOptions options) {
      this.config = config;
      this.events = new CircuitEvents(events, config);
      this.classifier = new OutcomeClassifier(config);
      Duration longest = max(max(config.resetTimeout(), config.window()), options.probeLease());
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
      this.arguments = new String[] {
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
      this.shape = shape(config);
    }

    /**
     * What the counts in the hash mean: two settings of one shape count alike, so a change of
     * thresholds keeps the counts, and a change of shape starts them anew, as a local breaker
     * does (its {@code sameWindow}).
     */
    private static String shape(CircuitBreakerConfig config) {
      if (!config.windowed()) {
        return "classic";
      }
      return (config.rateMode() ? "rate" : "") + (config.judgesSlowCalls() ? "+slow" : "") + ":"
          + (config.windowCalls() > 0 ? config.windowCalls() + "calls" : config.window().toNanos() / 1_000 + "us")
          + "/" + config.windowBuckets();
    }
  }

  RedisCircuitBreaker(CircuitBreakerConfig config, BackendContext context, RedisStore store) {
    this.name = config.name();
    this.store = store;
    this.backendName = context.backendName();
    this.eventSink = context.events();
    this.local = store.options().whenUnavailable() == WhenUnavailable.LOCAL ? context.localCircuitBreaker(config) : null;
    this.key = store.options().keyPrefix() + "circuit:" + config.name();
    this.leaseMicros = Long.toString(store.options().probeLease().toNanos() / 1_000);
    this.settings = new Settings(config, eventSink, store.options());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public OutcomeClassifier classifier() {
    return settings.classifier;
  }

  /** @return true when the local fallback (if any) can take new settings too, as the registry's can */
  @Override
  public boolean reconfigurable() {
    return local == null || local.reconfigurable();
  }

  /**
   * Takes new settings from the next call on: thresholds, rates, the minimum of calls and the
   * slow-call rules judge the next outcome; a new reset timeout applies from the next opening.
   * The shared circuit in Redis is kept: its state, its stretch and its cooldown, and the counts of
   * its window while the window keeps its shape. A window of another shape (classic and rate mode,
   * judging slow calls or not, another span, count or number of buckets) starts anew at the next
   * outcome recorded, as a local breaker's does. During a rolling change every outcome is judged by
   * the settings of the machine that records it; two shapes then restart the window in turn, so
   * roll such a change out quickly. The local fallback takes the settings as a local breaker does.
   */
  @Override
  public void reconfigure(CircuitBreakerConfig config) {
    if (local != null) {
      local.reconfigure(config);
    }
    settings = new Settings(config, eventSink, store.options());
  }

  /** @return false while the server (or cluster node) holding this circuit cannot be reached */
  @Override
  public boolean backendAvailable() {
    return store.reachable(key);
  }

  @Override
  public Object acquire() {
    String token = tokenPrefix + tokens.incrementAndGet();
    Settings current = settings;
    CircuitEvents events = current.events;
    List<Object> reply;
    try {
      reply = store.eval(Script.CIRCUIT_ACQUIRE, key, leaseMicros, token, current.ttlMillis);
    } catch (RedisStore.Unavailable unavailable) {
      return fallback(unavailable).acquire();
    }
    switch (((Long) reply.get(0)).intValue()) {
      case 1:
        boolean quiet = !current.config.windowed() && (Long) reply.get(2) == 0;
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
    Settings current = settings;
    CircuitBreakerConfig config = current.config;
    CircuitEvents events = current.events;
    // Quiet only while classic mode still holds: new settings may have made the window count it.
    if (!failure && !slow && admitted.quiet && !config.windowed()) {
      return;
    }
    List<Object> reply;
    try {
      String[] settingArguments = current.arguments;
      String[] arguments = new String[5 + settingArguments.length];
      arguments[0] = Long.toString(admitted.generation);
      arguments[1] = admitted.token;
      arguments[2] = failure ? "1" : "0";
      System.arraycopy(settingArguments, 0, arguments, 3, settingArguments.length);
      arguments[3 + settingArguments.length] = slow ? "1" : "0";
      arguments[4 + settingArguments.length] = current.shape;
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
    Settings current = settings;
    try {
      List<Object> reply = store.eval(Script.CIRCUIT_RESET, key, current.ttlMillis);
      if (!"C".equals(reply.get(0))) {
        current.events.closed("O".equals(reply.get(0)) ? CircuitState.OPEN : CircuitState.HALF_OPEN);
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
