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

  private final RateLimitConfig config;
  private final RedisStore store;
  private final String backendName;
  private final TimeSource time;
  private final RateLimitSteps steps;
  private final RateLimiterInstance local;
  private final String key;
  private final long intervalMicros;
  private final long capacityMicros;
  private final String[] takeArguments;
  /**
   * The takes still to come, by the instant (on this machine's clock) their token arrives, with the
   * bucket's instant in Redis that names them: a caller who stops waiting gives its token back while
   * its take is still the bucket's latest. Tokens that have arrived are forgotten.
   */
  private final ConcurrentSkipListMap<Long, String> waiting = new ConcurrentSkipListMap<>();

  RedisRateLimiter(RateLimitConfig config, BackendContext context, RedisStore store) {
    this.config = config;
    this.store = store;
    this.backendName = context.backendName();
    this.time = context.time();
    this.steps = new RateLimitSteps(config.name(), time, context.events());
    this.local = store.options().whenUnavailable() == WhenUnavailable.LOCAL ? context.localRateLimiter(config) : null;
    this.key = store.options().keyPrefix() + "ratelimit:" + config.name();
    long perMicros = micros(config.per());
    this.intervalMicros = Math.max(1, perMicros / config.permits() + (perMicros % config.permits() == 0 ? 0 : 1));
    this.capacityMicros = intervalMicros > LONGEST_SPAN_MICROS / config.burst()
        ? LONGEST_SPAN_MICROS
        : intervalMicros * config.burst();
    this.takeArguments = new String[] {
        Long.toString(intervalMicros), Long.toString(capacityMicros), Long.toString(micros(config.maxWait()))};
  }

  @Override
  public String name() {
    return config.name();
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
    List<Object> taken;
    try {
      taken = take();
    } catch (RedisStore.Unavailable unavailable) {
      fallback(unavailable).acquire();
      return;
    }
    steps.awaitToken(askedAt, waitNanos(taken), () -> giveBack(String.valueOf(taken.get(2))));
  }

  /** @return the instant (on this machine's time source) the reserved token arrives */
  @Override
  public long reserveToken() {
    long now = time.nanoTime();
    List<Object> taken;
    try {
      taken = take();
    } catch (RedisStore.Unavailable unavailable) {
      return now + fallback(unavailable).reserve();
    }
    long waitNanos = waitNanos(taken);
    if (waitNanos <= 0) {
      return now;
    }
    long reservation = now + waitNanos;
    waiting.headMap(now).clear();
    waiting.put(reservation, String.valueOf(taken.get(2)));
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
    String reservedFullAt = waiting.remove(reservation);
    if (reservedFullAt != null) {
      giveBack(reservedFullAt);
    }
  }

  /** Gives back the token of an interrupted blocking wait, if its take is still the bucket's latest. */
  private void giveBack(String reservedFullAt) {
    try {
      store.eval(Script.RATELIMIT_GIVE_BACK, key, Long.toString(intervalMicros), reservedFullAt);
    } catch (RedisStore.Unavailable unavailable) {
      // The outage is reported by the store; the token is dropped, which never admits more.
    }
  }

  @Override
  public long availablePermits() {
    try {
      long owed = (Long) store.eval(Script.RATELIMIT_OWED, key).get(0);
      return owed >= capacityMicros ? 0 : (capacityMicros - owed) / intervalMicros;
    } catch (RedisStore.Unavailable unavailable) {
      return local == null ? 0 : local.availablePermits();
    }
  }

  /**
   * @return the script's reply: admitted, the wait in microseconds, the reservation's instant
   * @throws RateLimitedException when the token cannot arrive within {@code maxWait}
   */
  private List<Object> take() throws RedisStore.Unavailable {
    List<Object> reply = store.eval(Script.RATELIMIT_TAKE, key, takeArguments);
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
    return config.permits();
  }

  @Override
  public String toString() {
    return "RedisRateLimiter[" + name() + ", " + key + "]";
  }
}
