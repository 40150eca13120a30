package dev.brace.redis;

import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.RateLimitSteps;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A token bucket kept in Redis: each admission is one script on the server's clock, so every
 * machine draws on one quota exactly. The arithmetic is the local bucket's (a generic cell rate
 * algorithm) in microseconds; a rate above a million tokens a second is served at one per
 * microsecond. While Redis is unavailable the call is decided by a local bucket of the same
 * settings (so each machine has the whole quota for that time) or refused, as configured.
 */
final class RedisRateLimiter implements RateLimiterInstance {
  /** About 73 years in microseconds: sums of a few such spans stay far below 2^53. */
  private static final long LONGEST_SPAN_MICROS = 1L << 51;

  private final String name;
  private final RedisStore store;
  private final String backendName;
  private final TimeSource time;
  private final RateLimitSteps steps;
  private final RateLimiterInstance local;
  private final String key;
  /** Read once per decision, so none runs on half of one configuration and half of another. */
  private volatile Settings settings;

  /**
   * One version of the settings, as the scripts take them. The bucket in Redis is one instant, so
   * new settings need nothing converted there: they apply from the next take.
   */
  private static final class Settings {
    final RateLimitConfig config;
    final long intervalMicros;
    final long capacityMicros;
    final String[] takeArguments;

    Settings(RateLimitConfig config) {
      this.config = config;
      long perMicros = micros(config.per());
      this.intervalMicros = Math.max(1, perMicros / config.permits() + (perMicros % config.permits() == 0 ? 0 : 1));
      this.capacityMicros = intervalMicros > LONGEST_SPAN_MICROS / config.burst()
          ? LONGEST_SPAN_MICROS
          : intervalMicros * config.burst();
      this.takeArguments = new String[] {
          Long.toString(intervalMicros), Long.toString(capacityMicros), Long.toString(micros(config.maxWait()))};
    }
  }
  /**
   * The takes still to come, by the instant (on this machine's clock) their token arrives, with the
   * bucket's instant in Redis that names them and the settings they were taken with: a caller who
   * stops waiting gives its token back while its take is still the bucket's latest. Tokens that have
   * arrived are forgotten.
   */
  private final ConcurrentSkipListMap<Long, Reserved> waiting = new ConcurrentSkipListMap<>();

  /** A take still to come: the settings it was taken with and the bucket's instant it moved to. */
  private record Reserved(Settings settings, String fullAt) {}

  RedisRateLimiter(RateLimitConfig config, BackendContext context, RedisStore store) {
    this.name = config.name();
    this.store = store;
    this.backendName = context.backendName();
    this.time = context.time();
    this.steps = new RateLimitSteps(config.name(), time, context.events());
    this.local = store.options().whenUnavailable() == WhenUnavailable.LOCAL ? context.localRateLimiter(config) : null;
    this.key = store.options().keyPrefix() + "ratelimit:" + config.name();
    this.settings = new Settings(config);
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
   * Takes new settings from the next take on: new permits, period, burst and wait. The shared
   * bucket in Redis is kept as it is: it is one instant, when the bucket is full again, and each
   * take reads it with its caller's settings. So the bucket is full again when it would have been:
   * with {@code burst} following {@code permits} (the default) it stays as full as it was, half
   * full stays half full; a burst raised alone adds its tokens at once; one lowered alone takes as
   * many away, and a bucket that held fewer owes the rest, refused until it has refilled them.
   * Callers already waiting keep the tokens they were promised. The local fallback takes the
   * settings as a local bucket does.
   */
  @Override
  public void reconfigure(RateLimitConfig config) {
    if (local != null) {
      local.reconfigure(config);
    }
    settings = new Settings(config);
  }

  /**
   * Takes a token in Redis and waits for it if it is reserved ahead. An interrupt while the script
   * is in flight is held until its reply (see {@link RedisStore#eval}): a caller who must then wait
   * is refused at once with {@link RateLimitedException} caused by the {@link InterruptedException},
   * its token given back while its take is still the bucket's latest, and its interrupt flag set
   * again; a caller whose token is there at once is admitted with the flag still set, as the local
   * bucket admits an interrupted caller that need not wait. Never the local fallback: an interrupt
   * is not an outage.
   */
  @Override
  public void acquire() {
    long askedAt = time.nanoTime();
    Settings current = settings;
    List<Object> taken;
    try {
      taken = take(current);
    } catch (RedisStore.Unavailable unavailable) {
      fallback(unavailable).acquire();
      return;
    }
    steps.awaitToken(askedAt, waitNanos(taken), () -> giveBack(current, String.valueOf(taken.get(2))));
  }

  /** @return the instant (on this machine's time source) the reserved token arrives */
  @Override
  public long reserveToken() {
    long now = time.nanoTime();
    Settings current = settings;
    List<Object> taken;
    try {
      taken = take(current);
    } catch (RedisStore.Unavailable unavailable) {
      return now + fallback(unavailable).reserve();
    }
    long waitNanos = waitNanos(taken);
    if (waitNanos <= 0) {
      return now;
    }
    long reservation = now + waitNanos;
    waiting.headMap(now).clear();
    waiting.put(reservation, new Reserved(current, String.valueOf(taken.get(2))));
    return reservation;
  }

  @Override
  public long waitFor(long reservation) {
    return Math.max(0, reservation - time.nanoTime());
  }

  @Override
  public void waited(long waitedNanos) {
    steps.waited(waitedNanos);
  }

  /**
   * Gives the token of a caller that stops waiting back, if its take is still the bucket's latest in
   * Redis (a later take has the instant after it, so giving an earlier one back could admit more
   * than burst: that token is dropped, which never admits more). A token taken from the local
   * fallback during an outage is dropped too.
   */
  @Override
  public void cancelReservation(long reservation) {
    Reserved reserved = waiting.remove(reservation);
    if (reserved != null) {
      giveBack(reserved.settings(), reserved.fullAt());
    }
  }

  /** Gives back the token of an interrupted blocking wait, if its take is still the bucket's latest. */
  private void giveBack(Settings taken, String reservedFullAt) {
    try {
      store.eval(Script.RATELIMIT_GIVE_BACK, key, Long.toString(taken.intervalMicros), reservedFullAt);
    } catch (RedisStore.Unavailable unavailable) {
      // The outage is reported by the store; the token is dropped, which never admits more.
    }
  }

  @Override
  public long availablePermits() {
    Settings current = settings;
    try {
      long owed = (Long) store.eval(Script.RATELIMIT_OWED, key).get(0);
      return owed >= current.capacityMicros ? 0 : (current.capacityMicros - owed) / current.intervalMicros;
    } catch (RedisStore.Unavailable unavailable) {
      return local == null ? 0 : local.availablePermits();
    }
  }

  /**
   * @return the script's reply: admitted, the wait in microseconds, the reservation's instant
   * @throws RateLimitedException when the token cannot arrive within {@code maxWait}
   */
  private List<Object> take(Settings current) throws RedisStore.Unavailable {
    List<Object> reply = store.eval(Script.RATELIMIT_TAKE, key, current.takeArguments);
    if ((Long) reply.get(0) == 0) {
      throw steps.rejected(waitNanos(reply));
    }
    return reply;
  }

  /** @return nanoseconds until the claimed token arrives (0 or less: at once) */
  private static long waitNanos(List<Object> reply) {
    return (Long) reply.get(1) * 1_000;
  }

  private RateLimiterInstance fallback(RedisStore.Unavailable unavailable) {
    if (local == null) {
      throw RateLimitedException.backendUnavailable(name(), backendName, unavailable.getCause());
    }
    return local;
  }

  private static long micros(Duration duration) {
    return duration.compareTo(Duration.of(LONGEST_SPAN_MICROS, java.time.temporal.ChronoUnit.MICROS)) >= 0
        ? LONGEST_SPAN_MICROS
        : duration.toNanos() / 1_000;
  }

  /** @return {@code permits}: this bucket does not adapt ({@link RedisAdaptiveRateLimiter} does) */
  @Override
  public double currentRate() {
    return settings.config.permits();
  }

  /** @return false while the server (or cluster node) holding this bucket cannot be reached */
  @Override
  public boolean backendAvailable() {
    return store.reachable(key);
  }

  @Override
  public String toString() {
    return "RedisRateLimiter[" + name() + ", " + key + "]";
  }
}
