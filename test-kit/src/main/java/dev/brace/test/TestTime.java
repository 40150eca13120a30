package dev.brace.test;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A test's time: a {@link ManualTimeSource} (with its scheduler) for every duration, wait and
 * deadline, and a wall clock that moves with it, for event timestamps and for a {@code Retry-After}
 * header that gives an HTTP date. Nothing moves unless the test advances it.
 */
public final class TestTime {
  /** Where the wall clock starts: a fixed instant, so a test that prints or parses a date repeats. */
  public static final Instant WALL_CLOCK_START = Instant.parse("2026-01-01T00:00:00Z");

  private final ManualTimeSource source = new ManualTimeSource();
  private final long startNanos = source.nanoTime();
  private final Clock wallClock = new MovingClock(ZoneOffset.UTC);

  /** Starts at {@link #WALL_CLOCK_START}, elapsed zero. */
  public TestTime() {}

  /** @return the time source every policy of the registry reads */
  public ManualTimeSource source() {
    return source;
  }

  /** @return the wall clock: {@link #WALL_CLOCK_START} plus {@link #elapsed()} */
  public Clock wallClock() {
    return wallClock;
  }

  /** @return how far the test has advanced time */
  public Duration elapsed() {
    return Duration.ofNanos(source.nanoTime() - startNanos);
  }

  /**
   * @param nanoTime a reading of {@link #source()}
   * @return how long after the start it was
   */
  Duration sinceStart(long nanoTime) {
    return Duration.ofNanos(nanoTime - startNanos);
  }

  /**
   * Puts a registry under construction on this time: its time source (and so its scheduler) and
   * its wall clock.
   *
   * @param builder the registry's builder
   * @return the builder
   * @throws NullPointerException when {@code builder} is null
   */
  public Registry.Builder applyTo(Registry.Builder builder) {
    return Objects.requireNonNull(builder, "builder").timeSource(source).wallClock(wallClock);
  }

  /** The wall clock: reads the manual time source, so it moves exactly when the test advances it. */
  private final class MovingClock extends Clock {
    private final ZoneId zone;

    MovingClock(ZoneId zone) {
      this.zone = zone;
    }

    @Override
    public ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return new MovingClock(zone);
    }

    @Override
    public Instant instant() {
      return WALL_CLOCK_START.plus(elapsed());
    }
  }
}
