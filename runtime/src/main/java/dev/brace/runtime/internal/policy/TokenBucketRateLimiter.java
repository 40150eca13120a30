package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.RateLimitSteps;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket of {@code permits} tokens every {@code per}, holding at most {@code burst}, kept
 * as a generic cell rate algorithm: the whole state is one instant, {@code fullAt}, when the bucket
 * would be full again. Taking a token moves it one emission interval later; idle time refills
 * the bucket simply by letting the clock overtake it, so refill is exact for any idle time and
 * the part of a token that has not yet arrived is carried, not lost or rounded.
 *
 * <p>A caller whose token lies in the future reserves it by moving {@code fullAt} at the moment
 * it asks, then sleeps until the token's instant; later callers get later tokens, so waiting is
 * first come, first served up to clock resolution. Lock-free: one compare-and-set per call, and
 * nothing is allocated unless the caller waits or is refused.
 *
 * <p>Instants are compared only by difference, as {@link System#nanoTime()} requires. The
 * emission interval is {@code per / permits} rounded up to a whole nanosecond (exact for every
 * {@code per} that is a multiple of {@code permits} nanoseconds), so the configured rate is never
 * exceeded. Spans (the period, {@code maxWait}, the time to refill an empty bucket) longer than
 * about 73 years are capped there so that no sum of them overflows; a bucket that would take longer
 * to refill holds only 73 years' worth of tokens.
 *
 * <p>An adaptive limiter (an AIMD token bucket) keeps its rate, in permits per {@code per}, in one
 * more atomic: a throttling failure of the dependency multiplies it by {@code decrease}, a success
 * adds {@code increase}, between {@code minPermits} and {@code permits}. Every take reads the
 * emission interval from the rate of that moment. The bucket's span stays {@code burst} tokens at
 * the full rate, so at a lower rate it holds proportionally fewer tokens and a decrease never frees
 * tokens at once. A hint ({@code Retry-After}) pushes {@code fullAt} so that the next token comes
 * no earlier than the hint says.
 *
 * <p>New settings ({@link #reconfigure}) come with a new instant: the old one is frozen, so no
 * caller can take a token on the old settings after the switch, and the new one is set so that
 * the bucket holds the tokens it held (capped at the new {@code burst}), or owes the tokens it had
 * promised to waiting callers. An adaptive limiter's rate is not part of the bucket: it
 * carries over, clamped to the new {@code minPermits} and {@code permits}.
 */
public final class TokenBucketRateLimiter implements RateLimiterInstance {

  /** About 73 years: three such spans still fit in a {@code long}, so sums never overflow. */
  static final long LONGEST_SPAN_NANOS = Long.MAX_VALUE / 4;

  /** What a replaced bucket's instant is set to: a caller that reads it takes from the new bucket. */
  private static final long FROZEN = Long.MIN_VALUE;
  /** What {@link #take} answers when asked for a token there now and there is none yet. */
  private static final long NOT_NOW = Long.MAX_VALUE;

  private final TimeSource time;
  private final RateLimitSteps steps;
  private volatile Bucket bucket;
  /**
   * An adaptive limiter's rate in permits per {@code per}, as {@link Double#doubleToLongBits} bits;
   * state learnt from the dependency, so it outlives a bucket replaced by new settings.
   */
  private final AtomicLong rateBits;

  /** One version of the settings, in nanoseconds, with the instant they govern. */
  private static final class Bucket {
    final RateLimitConfig config;
    final boolean adaptive;
    final long perNanos;
    /** The emission interval at the full rate, {@code permits} per {@code per}. */
    final long intervalNanos;
    final long capacityNanos;
    final long maxWaitNanos;
    /** The instant the bucket is full again; at or before now, the bucket is full. */
    final AtomicLong fullAt;

    Bucket(RateLimitConfig config, long fullAt) {
      this.config = config;
      this.adaptive = config.adaptive();
      this.perNanos = cappedNanos(config.per());
      long permits = config.permits();
      this.intervalNanos = Math.max(1, perNanos / permits + (perNanos % permits == 0 ? 0 : 1));
      this.capacityNanos = cappedProduct(intervalNanos, config.burst());
      this.maxWaitNanos = cappedNanos(config.maxWait());
      this.fullAt = new AtomicLong(fullAt);
    }
  }

  /**
   * Creates a full bucket.
   *
   * @param config the limiter's settings
   * @param time the clock read for every call and slept on while waiting for a token
   * @param events where refusals and waits are reported
   * @throws NullPointerException when an argument is null
   */
  public TokenBucketRateLimiter(RateLimitConfig config, TimeSource time, EventBus events) {
    Objects.requireNonNull(config, "config");
    this.time = Objects.requireNonNull(time, "time");
    this.steps = new RateLimitSteps(config.name(), time, Objects.requireNonNull(events, "events"));
    this.bucket = new Bucket(config, time.nanoTime());
    this.rateBits = new AtomicLong(Double.doubleToLongBits(config.permits()));
  }

  /** @return the settings this limiter runs on now */
  public RateLimitConfig config() {
    return bucket.config;
  }

  /**
   * Takes new settings, keeping the tokens: what is available now stays available (capped at the
   * new {@code burst}), and tokens already promised to waiting callers stay owed, each now worth the
   * new emission interval. A reservation made before the switch is not given back afterwards
   * (the limiter stays on the safe side).
   *
   * @param config the new settings, of this limiter's name
   */
  @Override
  public synchronized void reconfigure(RateLimitConfig config) {
    Objects.requireNonNull(config, "config");
    Bucket old = bucket;
    long frozenAt = old.fullAt.getAndSet(FROZEN);
    long now = time.nanoTime();
    long oldInterval = interval(old);
    Bucket next = new Bucket(config, now);
    // The learnt rate stays, within the new bounds; a fixed limiter runs at its permits.
    double rate = Double.longBitsToDouble(rateBits.get());
    double keptRate = config.adaptive() ? Math.max(config.minPermits(), Math.min(config.permits(), rate)) : config.permits();
    rateBits.set(Double.doubleToLongBits(keptRate));
    long nextInterval = interval(next);
    // Tokens held now; negative when tokens are owed to callers waiting for them.
    double tokens = (double) (capacity(old, oldInterval) - Math.max(0, frozenAt - now)) / oldInterval;
    double kept = Math.min(tokens, config.burst());
    double owed = Math.ceil(capacity(next, nextInterval) - kept * nextInterval);
    next.fullAt.set(now + (long) Math.min(Math.max(0, owed), 3.0 * LONGEST_SPAN_NANOS));
    bucket = next;
    if (keptRate != rate) {
      steps.rateChanged(rate, keptRate);
    }
  }

  /**
   * Moves the instant the bucket is full again past the longest span, so no token can arrive
   * within any {@code maxWait}. Under this limiter's lock, as {@link #reconfigure} is, so the
   * bucket in force is never a frozen one here.
   */
  @Override
  public synchronized void forceEmpty() {
    Bucket now = bucket;
    now.fullAt.set(time.nanoTime() + capacity(now, interval(now)) + LONGEST_SPAN_NANOS);
  }

  @Override
  public synchronized void releaseForced() {
    bucket.fullAt.set(time.nanoTime());
  }

  /** @return true: the local bucket takes new settings while it runs */
  @Override
  public boolean reconfigurable() {
    return true;
  }

  /**
   * Takes a token, sleeping through the {@link TimeSource} up to {@code maxWait} for one that is
   * reserved for this caller.
   *
   * @throws RateLimitedException at once, without waiting, when no token can arrive within {@code
   *     maxWait} ({@code retryAfter()} is the time until one would be available); or when the
   *     thread is interrupted while waiting, with the interrupt as cause, the reserved token given
   *     back and the interrupt flag set again
   */
  @Override
  public void acquire() {
    acquireAt(time.nanoTime());
  }

  /**
   * As {@link #acquire()}, at an instant the caller has just read from this limiter's {@link
   * TimeSource}: a call sequence that needs the time of admission anyway (to start a timeout's
   * deadline) reads the clock once for both.
   *
   * @param now the current instant, just read
   * @return whether the caller waited for its token, after which {@code now} is past
   * @throws RateLimitedException as {@link #acquire()}
   */
  public boolean acquireAt(long now) {
    Bucket taken = bucket;
    long waitNanos = take(taken, now, true);
    while (waitNanos == FROZEN) {
      taken = current();
      waitNanos = take(taken, now, true);
    }
    if (waitNanos <= 0) {
      return false;
    }
    Bucket from = taken;
    long reservation = now + waitNanos + from.capacityNanos;
    steps.awaitToken(now, waitNanos, () -> giveBack(from, reservation));
    return true;
  }

  /**
   * Reserves a token and names the reservation, for an asynchronous caller who waits on its own
   * scheduler and may give it back. Never blocks.
   *
   * @return the reservation: the instant the reserved token arrives
   * @throws RateLimitedException when the token cannot arrive within {@code maxWait}; nothing is
   *     reserved then
   */
  @Override
  public long reserveToken() {
    return reserveTokenAt(time.nanoTime());
  }

  @Override
  public long reserveTokenAt(long now) {
    long waitNanos = take(bucket, now, true);
    while (waitNanos == FROZEN) {
      waitNanos = take(current(), now, true);
    }
    return now + waitNanos;
  }

  @Override
  public boolean takeNow(long now) {
    long waitNanos = take(bucket, now, false);
    // New settings being switched to: the caller's way through reserveTokenAt waits that out.
    return waitNanos != NOT_NOW && waitNanos != FROZEN;
  }

  /**
   * @param reservation from {@link #reserveToken()}
   * @return nanoseconds from now until the reserved token arrives; 0 when it is there
   */
  @Override
  public long waitFor(long reservation) {
    return Math.max(0, reservation - time.nanoTime());
  }

  @Override
  public void waited(long waitedNanos) {
    steps.waited(waitedNanos);
  }

  /**
   * Gives back a reserved token that will not be used, for example because the asynchronous
   * caller was cancelled while waiting for it. Only the latest reservation can be given back: the
   * bucket is one instant, so a token reserved before others cannot be returned without handing
   * a later caller an instant another caller already holds, which would admit more than {@code
   * burst} at once. Such a token is dropped instead (the limiter stays on the safe side). A bucket
   * that has meanwhile refilled stays at its capacity.
   *
   * @param reservation from {@link #reserveToken()}
   */
  @Override
  public void cancelReservation(long reservation) {
    Bucket now = current();
    giveBack(now, reservation + now.capacityNanos);
  }

  /** @return the limiter's name */
  @Override
  public String name() {
    return bucket.config.name();
  }

  /** Reservations reach past a full bucket's span only when tokens are promised to waiting callers. */
  @Override
  public boolean hasWaiters() {
    Bucket now = current();
    return now.fullAt.get() - time.nanoTime() > capacity(now, interval(now));
  }

  /** @return whole tokens available now; 0 while callers wait for tokens still to come */
  @Override
  public long availablePermits() {
    Bucket now = current();
    long owed = Math.max(0, now.fullAt.get() - time.nanoTime());
    long interval = interval(now);
    long capacity = capacity(now, interval);
    // Divided rather than taken from burst, so a capped capacity span reports its true depth.
    return owed >= capacity ? 0 : (capacity - owed) / interval;
  }

  /** @return {@code permits}, or an adaptive limiter's rate now */
  @Override
  public double currentRate() {
    return Double.longBitsToDouble(rateBits.get());
  }

  /**
   * {@inheritDoc}
   *
   * <p>Does nothing for a limiter that does not adapt.
   */
  @Override
  public void throttled(long blockNanos) {
    RateLimitConfig config = bucket.config;
    if (!config.adaptive()) {
      return;
    }
    double from;
    double to;
    while (true) {
      long bits = rateBits.get();
      from = Double.longBitsToDouble(bits);
      to = Math.max(config.minPermits(), from * config.decrease());
      if (to == from || rateBits.compareAndSet(bits, Double.doubleToLongBits(to))) {
        break;
      }
    }
    if (blockNanos > 0) {
      block(blockNanos);
    }
    steps.rateChanged(from, to);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Does nothing for a limiter that does not adapt, or one at its full rate.
   */
  @Override
  public void succeeded() {
    RateLimitConfig config = bucket.config;
    if (!config.adaptive()) {
      return;
    }
    while (true) {
      long bits = rateBits.get();
      double from = Double.longBitsToDouble(bits);
      if (from >= config.permits()) {
        return;
      }
      double to = Math.min(config.permits(), from + config.increase());
      if (rateBits.compareAndSet(bits, Double.doubleToLongBits(to))) {
        steps.rateChanged(from, to);
        return;
      }
    }
  }

  /** Moves {@code fullAt} so that the next token arrives {@code blockNanos} from now at the earliest. */
  private void block(long blockNanos) {
    while (true) {
      Bucket bucket = current();
      long now = time.nanoTime();
      long interval = interval(bucket);
      long blockedFullAt = now + Math.min(blockNanos, LONGEST_SPAN_NANOS) + capacity(bucket, interval) - interval;
      long current = bucket.fullAt.get();
      // FROZEN: new settings replaced the bucket meanwhile; block the new one.
      if (current != FROZEN
          && (current - blockedFullAt >= 0 || bucket.fullAt.compareAndSet(current, blockedFullAt))) {
        return;
      }
    }
  }

  /**
   * The bucket's span: {@code burst} tokens at the full rate, and for an adaptive limiter at least
   * one token at the rate of the moment, so a slow rate still admits. A reservation is named by the
   * fixed span; one taken with a longer span cannot be given back and is dropped, never admitting more.
   */
  private static long capacity(Bucket bucket, long interval) {
    return bucket.adaptive ? Math.max(bucket.capacityNanos, interval) : bucket.capacityNanos;
  }

  /** The emission interval now: fixed, or from an adaptive limiter's rate at this moment. */
  private long interval(Bucket bucket) {
    if (!bucket.adaptive) {
      return bucket.intervalNanos;
    }
    double rate = Double.longBitsToDouble(rateBits.get());
    double interval = Math.ceil(bucket.perNanos / rate);
    return interval >= LONGEST_SPAN_NANOS ? LONGEST_SPAN_NANOS : Math.max(1, (long) interval);
  }

  /** @return the bucket in force, waiting out a switch to new settings that is under way */
  private Bucket current() {
    while (true) {
      Bucket now = bucket;
      if (now.fullAt.get() != FROZEN) {
        return now;
      }
      Thread.onSpinWait();
    }
  }

  /**
   * Claims the next token, now or in the future.
   *
   * @param reserves whether a token still to come is claimed (and one beyond {@code maxWait}
   *     refused); when false, only a token there now is
   * @return nanoseconds from {@code now} until the claimed token arrives (0 or less: at once),
   *     {@link #NOT_NOW} when nothing was claimed because the token is still to come, or {@link
   *     #FROZEN} when new settings replaced the bucket: take from the new one
   */
  private long take(Bucket bucket, long now, boolean reserves) {
    long interval = interval(bucket);
    long capacity = capacity(bucket, interval);
    while (true) {
      long current = bucket.fullAt.get();
      if (current == FROZEN) {
        return FROZEN;
      }
      // An instant in the past means a full bucket: idle time beyond it earns nothing.
      long owed = Math.max(0, current - now);
      long waitNanos = owed + interval - capacity;
      if (waitNanos > 0 && !reserves) {
        return NOT_NOW;
      }
      if (waitNanos > bucket.maxWaitNanos) {
        throw steps.rejected(waitNanos);
      }
      if (bucket.fullAt.compareAndSet(current, now + owed + interval)) {
        return waitNanos;
      }
    }
  }

  /**
   * Undoes the {@link #take} that moved {@code fullAt} to {@code reservedFullAt}, if no take came
   * after it, without filling the bucket beyond its capacity.
   */
  private void giveBack(Bucket bucket, long reservedFullAt) {
    long now = time.nanoTime();
    long current = bucket.fullAt.get();
    if (current != reservedFullAt || current - now <= 0) {
      return;
    }
    long earlier = current - interval(bucket);
    if (earlier - now < 0) {
      earlier = now;
    }
    // Failing means a later take came in between (or new settings froze it): the token is dropped, as above.
    bucket.fullAt.compareAndSet(current, earlier);
  }

  private static long cappedNanos(Duration duration) {
    return duration.compareTo(Duration.ofNanos(LONGEST_SPAN_NANOS)) >= 0
        ? LONGEST_SPAN_NANOS
        : duration.toNanos();
  }

  private static long cappedProduct(long nanos, long times) {
    return nanos > LONGEST_SPAN_NANOS / times ? LONGEST_SPAN_NANOS : nanos * times;
  }
}
