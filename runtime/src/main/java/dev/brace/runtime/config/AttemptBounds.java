package dev.brace.runtime.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One attempt must fit in its retry's {@code maxDuration}: the retry bounds the whole call, so a
 * timeout, or a limiter or bulkhead allowed to keep the attempt waiting, longer than that lets the
 * first attempt use up the limit and the retry never retries. The processor checks the annotations
 * against this rule, the registry the effective settings of every layer and of a {@code Stack};
 * each words the refusal for where the value came from.
 */
public final class AttemptBounds {
  /** The patterns whose setting bounds how long one attempt may take, in the order refusals name them. */
  private static final List<Kind> BOUNDING = List.of(Kind.TIMEOUT, Kind.RATELIMIT, Kind.BULKHEAD);

  private AttemptBounds() {}

  /**
   * @param kind one of the patterns that bound an attempt: timeout, rate limit or bulkhead
   * @return the attribute of that pattern that bounds an attempt: the timeout's {@code value}, a
   *     limiter's or bulkhead's {@code maxWait}
   * @throws IllegalArgumentException for any other kind
   */
  public static String attribute(Kind kind) {
    Objects.requireNonNull(kind, "kind");
    switch (kind) {
      case TIMEOUT:
        return "value";
      case RATELIMIT:
      case BULKHEAD:
        return "maxWait";
      default:
        throw new IllegalArgumentException(kind + " does not bound how long an attempt takes");
    }
  }

  /**
   * @param maxDuration the retry's {@code maxDuration}
   * @param boundOf for each kind that bounds an attempt, the value of its {@link #attribute} in
   *     this call; empty when the call has no such pattern or the value means none
   * @return the kinds whose bound is longer than {@code maxDuration}, timeout first, then rate
   *     limit, then bulkhead; empty when one attempt fits
   */
  public static List<Kind> exceeding(Duration maxDuration, Function<Kind, Optional<Duration>> boundOf) {
    Objects.requireNonNull(maxDuration, "maxDuration");
    Objects.requireNonNull(boundOf, "boundOf");
    List<Kind> exceeding = new ArrayList<>(BOUNDING.size());
    for (Kind kind : BOUNDING) {
      if (boundOf.apply(kind).filter(bound -> bound.compareTo(maxDuration) > 0).isPresent()) {
        exceeding.add(kind);
      }
    }
    return exceeding;
  }
}
