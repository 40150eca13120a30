package dev.brace.runtime.internal.policy;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.ResilienceException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The remembered results of one call ({@code @StaleIfError}) and what it decides with them: the
 * latest result per key, at most {@code maxEntries} keys for at most {@code maxAge}, in a Caffeine
 * cache that reads the registry's clock; whether a failure is answered from memory; whether a
 * fresh result answers without a call; and, while {@code fresh} is above zero, which single call
 * per key reaches the dependency while the others wait for its outcome.
 *
 * <p>Thread-safe. One per resolved call (a generated wrapper's method, a {@code Stack}).
 */
public final class StaleAnswers {
  /** What a look-up returns when nothing answers; results may be null, so null cannot say it. */
  public static final Object NONE = new Object() {
    @Override
    public String toString() {
      return "no answer";
    }
  };

  /** The key of every call of a {@code Stack} called without a key: one remembered result. */
  private static final Object NO_KEY = new Object() {
    @Override
    public String toString() {
      return "(no key)";
    }
  };

  private final StaleIfErrorConfig config;
  private final String callName;
  private final TimeSource time;
  private final EventBus events;
  /** Failures answered from memory or not, for a bound metrics listener. */
  private final BoundMetrics<InstanceMetrics> metrics;
  private final ExceptionFilter filter;
  private final long freshNanos;
  private final long maxAgeNanos;
  private final Cache<Object, Remembered> remembered;
  private final ConcurrentHashMap<Object, Flight> flights = new ConcurrentHashMap<>();

  /**
   * @param config the settings
   * @param callName the call, for events and messages
   * @param time the registry's clock: ages and expiry are read on it
   * @param events the event boundary
   */
  public StaleAnswers(StaleIfErrorConfig config, String callName, TimeSource time, EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
    this.metrics = BoundMetrics.ofInstance(events, Kind.STALEIFERROR, config.name());
    this.filter = new ExceptionFilter(config.on(), config.ignore());
    this.freshNanos = config.fresh().toNanos();
    this.maxAgeNanos = config.maxAge().toNanos();
    // Caffeine runs its maintenance on the caller's thread: no pool thread of its own, so nothing
    // ever runs outside a call and manual time drives expiry exactly. It drops an entry once its
    // age reaches the duration, and a result exactly maxAge old still answers, hence the extra
    // nanosecond; answer() holds the exact bound.
    this.remembered = Caffeine.newBuilder()
        .maximumSize(config.maxEntries())
        .expireAfterWrite(maxAgeNanos + 1, TimeUnit.NANOSECONDS)
        .ticker(time::nanoTime)
        .executor(Runnable::run)
        .build();
  }

  /**
   * The same call's remembered results under new settings, for a reconfiguration: this one when
   * the settings are the same; else a new one holding every result remembered so far (each keeps
   * its age, so the new {@code maxAge} and {@code fresh} judge it as they would have; the new
   * {@code maxEntries} bounds them). Calls in flight finish on this one.
   *
   * @param next the new settings, of the same call
   * @return what the call remembers from now on
   */
  public StaleAnswers carriedTo(StaleIfErrorConfig next) {
    if (next.values().equals(config.values())) {
      return this;
    }
    StaleAnswers carried = new StaleAnswers(next, callName, time, events);
    carried.remembered.putAll(remembered.asMap());
    return carried;
  }

  /** @return the settings */
  public StaleIfErrorConfig config() {
    return config;
  }

  /**
   * @param key the call's key, or null when its caller gave none
   * @return the key results are remembered under
   */
  public static Object keyOf(Object key) {
    return key == null ? NO_KEY : key;
  }

  /** @return whether fresh results answer without a call, one call per key at a time */
  public boolean singleFlight() {
    return freshNanos > 0;
  }

  /**
   * @param key the call's key
   * @return the remembered result when it is younger than {@code fresh}, else {@link #NONE}
   */
  public Object fresh(Object key) {
    if (freshNanos == 0) {
      return NONE;
    }
    Remembered latest = remembered.getIfPresent(key);
    return latest != null && time.nanoTime() - latest.at < freshNanos ? latest.value : NONE;
  }

  /**
   * Remembers a result, replacing the key's earlier one, and ends the flight the call led.
   *
   * @param key the call's key
   * @param value what the call returned; may be null
   * @param flight the flight the call led, or null
   */
  public void remember(Object key, Object value, Flight flight) {
    remembered.put(key, new Remembered(value, time.nanoTime()));
    if (flight != null) {
      // Remembered first: a call that arrives once the flight is gone finds the fresh result.
      flight.end(this, value, null);
    }
  }

  /**
   * A failed call: ends the flight it led (its followers share the failure; one the caller itself
   * stopped, or an {@link Error}, lets them call on their own), then decides whether a remembered
   * result answers the failure.
   *
   * @param key the call's key
   * @param failure what ended the call
   * @param flight the flight the call led, or null
   * @param callerStopped whether the call ended because its caller was interrupted or gave up:
   *     never answered, never shared
   * @return the remembered result, reported as {@code stale.served}; or {@link #NONE}, reported
   *     as {@code stale.missing} when the failure was one to answer
   */
  public Object answer(Object key, Throwable failure, Flight flight, boolean callerStopped) {
    Throwable cause = ExceptionFilter.unwrap(failure);
    boolean answerable = !callerStopped && !(cause instanceof Error) && filter.matches(cause);
    if (flight != null) {
      flight.end(this, null, callerStopped || cause instanceof Error ? Flight.ABANDONED : failure);
    }
    if (!answerable) {
      return NONE;
    }
    Remembered latest = remembered.getIfPresent(key);
    long age = latest == null ? 0 : time.nanoTime() - latest.at;
    InstanceMetrics bound = metrics.get();
    if (latest == null || age > maxAgeNanos) {
      if (bound != null) {
        bound.staleMissing();
      }
      if (events.enabled(EventKind.STALE_MISSING)) {
        events.emit(EventKind.STALE_MISSING, config.name(), "call", callName,
            "exception", cause.getClass().getName(), "message", cause.getMessage());
      }
      return NONE;
    }
    if (bound != null) {
      bound.staleServed();
    }
    if (events.enabled(EventKind.STALE_SERVED)) {
      events.emit(EventKind.STALE_SERVED, config.name(), "call", callName, "age_ms", age / 1_000_000,
          "exception", cause.getClass().getName(), "message", cause.getMessage());
    }
    return latest.value;
  }

  /**
   * Makes the caller the one call for {@code key} that reaches the dependency, unless another
   * call already is.
   *
   * @param key the call's key
   * @return the flight the caller now leads (end it with {@link #remember} or {@link #answer}, or
   *     {@link #abandon} it), or null when another call leads one: wait for {@link #following}
   */
  public Flight lead(Object key) {
    Flight flight = new Flight(key);
    return flights.putIfAbsent(key, flight) == null ? flight : null;
  }

  /**
   * @param key the call's key
   * @return the outcome of the call that leads the key's flight, or null when it has ended since;
   *     a flight its leader abandoned ends with a failure {@link #abandoned} recognises
   */
  public CompletableFuture<Object> following(Object key) {
    Flight flight = flights.get(key);
    return flight == null ? null : flight.outcome;
  }

  /**
   * Ends a flight whose leader stopped without an outcome (its caller gave up); its followers
   * then call on their own. Does nothing for a flight already ended or for null.
   *
   * @param flight the flight
   */
  public void abandon(Flight flight) {
    if (flight != null) {
      flight.end(this, null, Flight.ABANDONED);
    }
  }

  /**
   * @param failure what a followed flight ended with
   * @return whether its leader abandoned it: the follower must try again on its own
   */
  public static boolean abandoned(Throwable failure) {
    return failure == Flight.ABANDONED;
  }

  /**
   * Waits, on the caller's thread, for the call that leads a flight.
   *
   * @param outcome from {@link #following}
   * @return the leader's result, or {@link #NONE} when it abandoned the flight
   * @throws Throwable the leader's failure, as itself; or, when the caller is interrupted while it
   *     waits, an exception {@link #interruptedFollower} recognises (its interrupt flag set again)
   */
  public Object await(CompletableFuture<Object> outcome) throws Throwable {
    try {
      return outcome.get();
    } catch (ExecutionException failed) {
      Throwable failure = failed.getCause();
      if (abandoned(failure)) {
        return NONE;
      }
      throw failure;
    } catch (CancellationException cancelled) {
      throw cancelled;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new FollowerInterrupted(callName, interrupted);
    }
  }

  /**
   * @param failure what a call ended with
   * @return whether its caller was interrupted while it waited for another call's outcome: its own
   *     doing, answered by neither a remembered result nor the fallback
   */
  public static boolean interruptedFollower(Throwable failure) {
    return failure instanceof FollowerInterrupted;
  }

  /**
   * @param failure what a call ended with
   * @return whether its caller was interrupted while it waited, for attempts on other threads or
   *     for another call's outcome: its own doing, never answered (from memory or by the fallback)
   *     and never shared with a flight's followers
   */
  public static boolean callerStopped(Throwable failure) {
    return TimeoutPolicy.interruptedCaller(failure) || interruptedFollower(failure);
  }

  /** @return how many keys are remembered now (after pending evictions) */
  public long size() {
    remembered.cleanUp();
    return remembered.estimatedSize();
  }

  /** A result and when it was remembered, a {@link TimeSource#nanoTime()} value. */
  private static final class Remembered {
    final Object value;
    final long at;

    Remembered(Object value, long at) {
      this.value = value;
      this.at = at;
    }
  }

  /** The one call for a key that reaches the dependency while others wait for its outcome. */
  public static final class Flight {
    /** The outcome of a flight its leader left without one. Shared, so it carries no stack. */
    static final Throwable ABANDONED = new ResilienceException("the call the others waited for stopped without an outcome") {
      private static final long serialVersionUID = 1L;

      @Override
      public synchronized Throwable fillInStackTrace() {
        return this;
      }
    };

    final Object key;
    final CompletableFuture<Object> outcome = new CompletableFuture<>();

    Flight(Object key) {
      this.key = key;
    }

    /** Removed before it completes, so a newcomer never follows a flight that has landed. */
    void end(StaleAnswers owner, Object value, Throwable failure) {
      if (owner.flights.remove(key, this)) {
        if (failure == null) {
          outcome.complete(value);
        } else {
          outcome.completeExceptionally(failure);
        }
      }
    }
  }

  /** A follower's caller was interrupted while it waited; its flag is set again. */
  private static final class FollowerInterrupted extends ResilienceException {
    private static final long serialVersionUID = 1L;

    FollowerInterrupted(String callName, InterruptedException cause) {
      super("'" + callName + "' was interrupted while waiting for the call of the same key already in flight", cause);
    }
  }
}
