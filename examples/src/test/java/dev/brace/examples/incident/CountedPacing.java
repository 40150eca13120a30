package dev.brace.examples.incident;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The incident for a test: it moves on by what has happened, not by the machine's speed.
 *
 * <p>The callers call in rounds: in each round every caller makes one call, and the next round
 * starts when all have ended. A phase lasts a fixed number of rounds, so it holds the same number of
 * calls on any machine at any load. The brownout's refusals are drawn from a {@link Random} with a
 * fixed seed per phase. The Brace registry reads {@link #timeSource()}, a manual clock that only
 * this pacing moves, and only while no caller is doing anything that real time decides: it moves
 * in steps of {@value #STEP_MILLIS} ms while every caller that has not ended its call calls through
 * Brace and waits on that clock (a retry's backoff, a bulkhead's wait) or on a request the service
 * holds in the latency spike, and by {@value #PAUSE_MILLIS} ms between rounds (a user's pause). A
 * request the healthy service is answering therefore never sees the clock move, so Brace's 300 ms
 * timeout fires only on the spike's held requests, which the service keeps until the spike is
 * over. The plain client waits on its own one-second HTTP timeout there: the one real-time wait,
 * and it fails the same way however long it takes; the clock stands still meanwhile.
 *
 * <p>The clock also times the calls and stamps the registry's events, so the report and the phases
 * it shows are in the incident's time.
 */
final class CountedPacing implements Pacing {
  static final long STEP_MILLIS = 10;
  static final long PAUSE_MILLIS = 60;
  private static final Duration STEP = Duration.ofMillis(STEP_MILLIS);
  private static final Duration PAUSE = Duration.ofMillis(PAUSE_MILLIS);

  /** One caller, as the pacing sees it; each field is written by the caller's own thread only. */
  private static final class Caller {
    final Thread thread;
    /** Calls through Brace: the registry's clock ends its waits. The plain client waits on real time. */
    volatile boolean throughBrace;
    volatile int started;
    volatile int ended;
    volatile boolean inRequest;
    /** Interrupted while in a request (its timeout fired): running again soon, so not waiting. */
    volatile boolean woken;

    Caller(Thread thread) {
      this.thread = thread;
    }
  }

  private final Map<Phase, Integer> rounds;
  private final long seed;
  private final Duration safetyStop;
  private final ManualTimeSource clock = new ManualTimeSource();
  private final RegistryTime registryTime = new RegistryTime();
  private final Clock wallClock = new IncidentClock();
  private final Map<Thread, Caller> callers = new ConcurrentHashMap<>();
  /** Threads sleeping on the registry's clock, with the instant each wakes at. */
  private final Map<Thread, Long> sleepers = new ConcurrentHashMap<>();
  /** Moves whenever a caller does something the pacing watches, so a quiet moment can be confirmed. */
  private final AtomicLong progress = new AtomicLong();
  private final Object turns = new Object();
  private final Object phaseChange = new Object();
  private int round;  // guarded by turns
  private volatile boolean over;
  private volatile Phase phase = Phase.HEALTHY;
  private volatile long beganNanos;
  private volatile Instant beganAt;
  private volatile IncidentScript played;
  private final IncidentScript misbehaviour;

  /**
   * @param misbehaviour how the service misbehaves (its phase durations are not followed)
   * @param rounds how many rounds each phase lasts; every phase at least one
   * @param seed the seed of the service's failures
   * @param safetyStop how much real time the whole incident may take before it is stopped as stuck
   */
  CountedPacing(IncidentScript misbehaviour, Map<Phase, Integer> rounds, long seed, Duration safetyStop) {
    this.misbehaviour = Objects.requireNonNull(misbehaviour, "misbehaviour");
    this.rounds = new EnumMap<>(rounds);
    for (Phase each : Phase.values()) {
      if (this.rounds.getOrDefault(each, 0) < 1) {
        throw new IllegalArgumentException(each + " needs at least one round: " + rounds);
      }
    }
    this.seed = seed;
    this.safetyStop = Objects.requireNonNull(safetyStop, "safetyStop");
  }

  /** @return the clock and sleep for the Brace registry */
  TimeSource timeSource() {
    return registryTime;
  }

  /** @return the scheduler for the Brace registry (deadlines, bulkhead waits) on the same clock */
  ScheduledExecutorService scheduler() {
    return clock.scheduler();
  }

  /** @return the clock for the registry's event timestamps, on the same clock */
  Clock wallClock() {
    return wallClock;
  }

  @Override
  public void begin() {
    beganNanos = clock.nanoTime();
    beganAt = wallClock.instant();
  }

  @Override
  public Optional<Moment> now() {
    if (beganAt == null) {
      return Optional.empty();
    }
    return Optional.of(new Moment(clock.nanoTime() - beganNanos, phase));
  }

  @Override
  public Instant beganAt() {
    if (beganAt == null) {
      throw new IllegalStateException("the incident has not begun");
    }
    return beganAt;
  }

  @Override
  public Random failures(Phase phase) {
    return new Random(seed * 31 + phase.ordinal());
  }

  /** Holds the request until the spike is over: later than any client waits, on any clock. */
  @Override
  public void answerLate(Duration latency) throws InterruptedException {
    synchronized (phaseChange) {
      while (phase == Phase.LATENCY_SPIKE && !over) {
        phaseChange.wait();
      }
    }
  }

  @Override
  public boolean nextCall(boolean first, boolean throughBrace) throws InterruptedException {
    Caller caller = callers.computeIfAbsent(Thread.currentThread(), Caller::new);
    caller.throughBrace = throughBrace;
    synchronized (turns) {
      while (!over && caller.started >= round) {
        turns.wait();
      }
      if (over) {
        return false;
      }
      caller.started++;
    }
    progress.incrementAndGet();
    return true;
  }

  @Override
  public void callEnded() {
    Caller caller = callers.get(Thread.currentThread());
    caller.ended++;
    progress.incrementAndGet();
  }

  @Override
  public void requestSent() {
    Caller caller = callers.get(Thread.currentThread());
    if (caller != null) {  // the warm-up's threads are no callers
      caller.woken = false;
      caller.inRequest = true;
      progress.incrementAndGet();
    }
  }

  @Override
  public void requestEnded() {
    Caller caller = callers.get(Thread.currentThread());
    if (caller != null) {
      caller.inRequest = false;
      caller.woken = false;
      progress.incrementAndGet();
    }
  }

  @Override
  public void drive(int callerCount, LongConsumer tick, long tickMillis) throws InterruptedException {
    long stopAtNanos = System.nanoTime() + safetyStop.toNanos();
    Map<Phase, Long> lasted = new EnumMap<>(Phase.class);
    try {
      while (callers.size() < callerCount) {
        stopIfStuck(stopAtNanos, "only " + callers.size() + " of " + callerCount + " callers started");
        Thread.sleep(1);
      }
      for (Phase next : Phase.values()) {
        long from = clock.nanoTime();
        synchronized (phaseChange) {
          phase = next;
          phaseChange.notifyAll();
        }
        for (int i = 1; i <= rounds.get(next); i++) {
          playRound(next, i, stopAtNanos);
        }
        lasted.put(next, clock.nanoTime() - from);
      }
    } finally {
      over = true;
      synchronized (turns) {
        turns.notifyAll();
      }
      synchronized (phaseChange) {
        phaseChange.notifyAll();
      }
    }
    long[] millis = new long[Phase.values().length];
    for (Phase each : Phase.values()) {
      millis[each.ordinal()] = lasted.get(each) / 1_000_000;
    }
    played = misbehaviour.withDurations(millis);
  }

  @Override
  public IncidentScript played() {
    if (played == null) {
      throw new IllegalStateException("the incident is not over");
    }
    return played;
  }

  /** Lets every caller make one call, moving the clock only while all of them wait on it. */
  private void playRound(Phase current, int number, long stopAtNanos) throws InterruptedException {
    int target;
    synchronized (turns) {
      target = ++round;
      turns.notifyAll();
    }
    while (!allEnded(target)) {
      stopIfStuck(stopAtNanos, current.label() + ", round " + number + " of " + rounds.get(current));
      long before = progress.get();
      if (allWaitOnTheClock()) {
        // Looked again after a moment: a caller between two watched steps may look like it waits.
        Thread.sleep(1);
        if (progress.get() == before && allWaitOnTheClock()) {
          registryTime.advance(STEP);
          noticeTimeouts();
        }
      } else {
        Thread.sleep(1);
      }
    }
    registryTime.advance(PAUSE);
  }

  private boolean allEnded(int target) {
    for (Caller caller : callers.values()) {
      if (caller.ended < target) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether every caller still in its call waits for this clock to move: asleep on it and not yet
   * due, or holding a request the service keeps in the spike, or parked in Brace (a bulkhead's
   * wait, whose end the scheduler brings) outside any request. A plain caller never does: it waits
   * on real time (its HTTP timeout), and moving the clock meanwhile would only stretch the phase.
   */
  private boolean allWaitOnTheClock() {
    long now = clock.nanoTime();
    for (Caller caller : callers.values()) {
      if (caller.ended == caller.started) {
        continue;
      }
      if (!caller.throughBrace) {
        return false;
      }
      Long wakesAt = sleepers.get(caller.thread);
      if (wakesAt != null) {
        if (wakesAt <= now) {
          return false;  // due: it is about to run
        }
        continue;
      }
      if (caller.inRequest) {
        if (phase == Phase.LATENCY_SPIKE && !caller.woken) {
          continue;
        }
        return false;
      }
      Thread.State state = caller.thread.getState();
      if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
        return false;
      }
    }
    return true;
  }

  /**
   * A timeout that fired while the clock moved interrupted its caller, which still shows as
   * waiting in its request until it runs; it is not waiting on the clock any more.
   */
  private void noticeTimeouts() {
    for (Caller caller : callers.values()) {
      if (caller.inRequest && caller.thread.isInterrupted()) {
        caller.woken = true;
      }
    }
  }

  private void stopIfStuck(long stopAtNanos, String where) {
    if (System.nanoTime() - stopAtNanos > 0) {
      List<String> busy = new ArrayList<>();
      callers.values().forEach(caller -> {
        if (caller.ended < caller.started) {
          busy.add(caller.thread.getName() + " (" + caller.thread.getState()
              + (caller.inRequest ? ", in a request" : "") + (sleepers.containsKey(caller.thread) ? ", asleep" : "")
              + ")");
        }
      });
      throw new IllegalStateException("the incident did not finish within " + safetyStop.toSeconds()
          + " s of real time: stuck in " + where + "; callers still in their call: " + busy);
    }
  }

  /** The registry's clock: reads the manual clock; a sleep waits until this pacing moves it. */
  private final class RegistryTime implements TimeSource {
    private final Object moved = new Object();

    @Override
    public long nanoTime() {
      return clock.nanoTime();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      if (duration.isNegative() || duration.isZero()) {
        return;
      }
      Thread self = Thread.currentThread();
      long wakeAt = clock.nanoTime() + duration.toNanos();
      sleepers.put(self, wakeAt);
      progress.incrementAndGet();
      try {
        synchronized (moved) {
          while (clock.nanoTime() - wakeAt < 0) {
            moved.wait();
          }
        }
      } finally {
        sleepers.remove(self);
        progress.incrementAndGet();
      }
    }

    void advance(Duration duration) {
      clock.advance(duration);
      synchronized (moved) {
        moved.notifyAll();
      }
    }
  }

  /** Instants on the manual clock, for event timestamps. */
  private final class IncidentClock extends Clock {
    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the incident's clock has one zone, UTC");
    }

    @Override
    public Instant instant() {
      return Instant.EPOCH.plusNanos(clock.nanoTime());
    }
  }
}
