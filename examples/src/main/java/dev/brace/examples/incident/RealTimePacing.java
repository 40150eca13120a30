package dev.brace.examples.incident;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * The demo's pacing: the script's phases on the system's clock; callers arrive spread out and
 * pause 40 to 80 ms between calls; failures unseeded.
 */
final class RealTimePacing implements Pacing {
  private final IncidentScript script;
  private volatile long startNanos;
  private volatile Instant startInstant;
  private volatile boolean begun;

  RealTimePacing(IncidentScript script) {
    this.script = Objects.requireNonNull(script, "script");
  }

  @Override
  public void begin() {
    startNanos = System.nanoTime();
    startInstant = Instant.now();
    begun = true;
  }

  @Override
  public Optional<Moment> now() {
    if (!begun) {
      return Optional.empty();
    }
    long elapsed = System.nanoTime() - startNanos;
    return Optional.of(new Moment(elapsed, script.phaseAt(Duration.ofNanos(elapsed))));
  }

  @Override
  public Instant beganAt() {
    if (!begun) {
      throw new IllegalStateException("the incident has not begun");
    }
    return startInstant;
  }

  @Override
  public Random failures(Phase phase) {
    return new Random();
  }

  @Override
  public void answerLate(Duration latency) throws InterruptedException {
    Thread.sleep(latency.toMillis());
  }

  @Override
  public boolean nextCall(boolean first, boolean throughBrace) throws InterruptedException {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    // Callers arrive spread out, not in one burst, then pause between calls as users do.
    Thread.sleep(first ? random.nextInt(80) : 40 + random.nextInt(40));
    return System.nanoTime() - startNanos < script.total().toNanos();
  }

  @Override
  public void callEnded() {
    // The system's clock moves by itself.
  }

  @Override
  public void drive(int callers, LongConsumer tick, long tickMillis) throws InterruptedException {
    long totalMillis = script.total().toMillis();
    for (long at = tickMillis; at <= totalMillis; at += tickMillis) {
      sleepUntil(startNanos + at * 1_000_000);
      tick.accept(at);
    }
  }

  @Override
  public IncidentScript played() {
    return script;
  }

  private static void sleepUntil(long deadlineNanos) throws InterruptedException {
    for (long left = deadlineNanos - System.nanoTime(); left > 0; left = deadlineNanos - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
    }
  }
}
