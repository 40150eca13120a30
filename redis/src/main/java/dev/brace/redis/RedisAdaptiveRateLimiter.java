package dev.brace.redis;

import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.RateLimitSteps;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An adaptive (AIMD) token bucket kept in Redis: the bucket's instant and its rate in one hash, so a
 * fleet that is throttled backs off together and creeps back together. Each admission is still one
 * script: the successes this machine saw since its previous take ride along with it and raise the
 * rate there. A throttling failure is one more script, run when it happens. While Redis is
 * unavailable the call is decided by a local adaptive bucket of the same settings, which hears the
 * same signals, or refused, as configured. Waiting tokens are dropped rather than given back, as in
 * {@link RedisRateLimiter}.
 */
final class RedisAdaptiveRateLimiter implements RateLimiterInstance {
  private static final long LONGEST_SPAN_MICROS = 1L << 51;

  private final String name;
  private final RedisStore store;
  private final String backendName;
  private final TimeSource time;
  private final RateLimitSteps steps;
  private final RateLimiterInstance local;
  private final String key;
  private final AtomicLong successes = new AtomicLong();
  /** Read once per decision, so none runs on half of one configuration and half of another. */
  private volatile Settings settings;
  /** The rate the latest reply showed, for events and {@link #currentRate()} when Redis is away. */
  private volatile double seenRate;

  /** One version of the settings, as the scripts take them; every script gets all it needs. */
  private static final class Settings {
    final RateLimitConfig config;
    final long perMicros;
    final long capacityMicros;

    Settings(RateLimitConfig config) {
      this.config = config;
      this.perMicros = Math.min(LONGEST_SPAN_MICROS, config.per().toNanos() / 1_000);
      long interval = Math.max(1, perMicros / config.permits() + (perMicros % config.permits() == 0 ? 0 : 1));
      this.capacityMicros = interval > LONGEST_SPAN_MICROS / config.burst() ? LONGEST_SPAN_MICROS : interval * config.burst();
    }
  }

  RedisAdaptiveRateLimiter(RateLimitConfig config, BackendContext context, RedisStore store) {
    this.name = config.name();
    this.store = store;
    this.backendName = context.backendName();
    this.time = context.time();
    this.steps = new RateLimitSteps(config.name(), time, context.events());
    this.local = store.options().whenUnavailable() == WhenUnavailable.LOCAL ? context.localRateLimiter(config) : null;
    this.key = store.options().keyPrefix() + "ratelimit-adaptive:" + config.name();
    this.settings = new Settings(config);
    this.seenRate = config.permits();
  }

  @Override
  public String name() {
    return name;
  }

  /** @return true when the local fallback (if any) can take new settings too, as the registry's can */
  @Override
  public boolean reconfigurable() {
    return local == null || local.reconfigurable();
  }

  /**
   * Takes new settings from the next script on. The fleet's learnt rate stays in Redis; the next
   * take keeps it within the new {@code minPermits} and {@code permits} (and, while machines hold
   * different settings, within those of each machine that takes), and the bucket's instant is
   * kept, as {@link RedisRateLimiter#reconfigure} describes.
   */
  @Override
  public void reconfigure(RateLimitConfig config) {
    if (local != null) {
      local.reconfigure(config);
    }
    settings = new Settings(config);
  }

  @Override
  public void acquire() {
    long askedAt = time.nanoTime();
    long waitNanos;
    try {
      waitNanos = take();
    } catch (RedisStore.Unavailable unavailable) {
      fallback(unavailable).acquire();
      return;
    }
    steps.awaitToken(askedAt, waitNanos, () -> { });
  }

  @Override
  public long reserveToken() {
    long now = time.nanoTime();
    try {
      return now + Math.max(0, take());
    } catch (RedisStore.Unavailable unavailable) {
      return now + fallback(unavailable).reserve();
    }
  }

  @Override
  public long waitFor(long reservation) {
    return Math.max(0, reservation - time.nanoTime());
  }

  /** Drops the token, as {@link RedisRateLimiter#cancelReservation} does. */
  @Override
  public void cancelReservation(long reservation) {
    // Deliberately nothing: a dropped token never admits more.
  }

  @Override
  public void waited(long waitedNanos) {
    steps.waited(waitedNanos);
  }

  @Override
  public void throttled(long blockNanos) {
    if (local != null) {
      local.throttled(blockNanos);
    }
    Settings current = settings;
    try {
      List<Object> reply = store.eval(Script.RATELIMIT_ADAPTIVE_THROTTLED, key,
          Long.toString(current.perMicros), Integer.toString(current.config.permits()), Long.toString(current.capacityMicros),
          Double.toString(current.config.decrease()), Double.toString(current.config.minPermits()),
          Long.toString(Math.min(LONGEST_SPAN_MICROS, blockNanos / 1_000)));
      seen(Double.parseDouble((String) reply.get(1)));
    } catch (RedisStore.Unavailable unavailable) {
      // The outage is reported by the store; the local bucket heard the signal.
    }
  }

  /** Counted here and sent with the next take, so a success costs no round trip of its own. */
  @Override
  public void succeeded() {
    if (local != null) {
      local.succeeded();
    }
    if (seenRate < settings.config.permits()) {
      successes.incrementAndGet();
    }
  }

  @Override
  public long availablePermits() {
    Settings current = settings;
    try {
      List<Object> reply = store.eval(Script.RATELIMIT_ADAPTIVE_READ, key);
      long owed = (Long) reply.get(0);
      double rate = rateOf(reply.get(1), current);
      long interval = Math.max(1, (long) Math.ceil(current.perMicros / rate));
      long capacity = Math.max(current.capacityMicros, interval);
      return owed >= capacity ? 0 : (capacity - owed) / interval;
    } catch (RedisStore.Unavailable unavailable) {
      return local == null ? 0 : local.availablePermits();
    }
  }

  /** @return the fleet's rate as Redis holds it; what this machine last saw when Redis is away */
  @Override
  public double currentRate() {
    try {
      return rateOf(store.eval(Script.RATELIMIT_ADAPTIVE_READ, key).get(1), settings);
    } catch (RedisStore.Unavailable unavailable) {
      return local == null ? seenRate : local.currentRate();
    }
  }

  /**
   * @return nanoseconds until the claimed token arrives (0 or less: at once)
   * @throws RateLimitedException when it cannot arrive within {@code maxWait}
   */
  private long take() throws RedisStore.Unavailable {
    Settings current = settings;
    RateLimitConfig config = current.config;
    long pending = successes.getAndSet(0);
    List<Object> reply;
    try {
      reply = store.eval(Script.RATELIMIT_ADAPTIVE_TAKE, key,
          Long.toString(current.perMicros), Integer.toString(config.permits()), Long.toString(current.capacityMicros),
          Long.toString(config.maxWait().toNanos() / 1_000), Long.toString(pending), Double.toString(config.increase()),
          Double.toString(config.minPermits()));
    } catch (RedisStore.Unavailable unavailable) {
      successes.addAndGet(pending);
      throw unavailable;
    }
    seen(Double.parseDouble((String) reply.get(3)));
    long waitNanos = (Long) reply.get(1) * 1_000;
    if ((Long) reply.get(0) == 0) {
      throw steps.rejected(waitNanos);
    }
    return waitNanos;
  }

  private void seen(double rate) {
    double before = seenRate;
    seenRate = rate;
    steps.rateChanged(before, rate);
  }

  /** @return the rate Redis holds, within the caller's bounds as its next take would keep it */
  private static double rateOf(Object text, Settings current) {
    String rate = (String) text;
    RateLimitConfig config = current.config;
    return rate.isEmpty() ? config.permits() : Math.max(config.minPermits(), Math.min(config.permits(), Double.parseDouble(rate)));
  }

  /** @return false while the server (or cluster node) holding this bucket cannot be reached */
  @Override
  public boolean backendAvailable() {
    return store.reachable(key);
  }

  private RateLimiterInstance fallback(RedisStore.Unavailable unavailable) {
    if (local == null) {
      throw RateLimitedException.backendUnavailable(name(), backendName, unavailable == null ? null : unavailable.getCause());
    }
    return local;
  }

  @Override
  public String toString() {
    return "RedisAdaptiveRateLimiter[" + name() + ", " + key + "]";
  }
}
