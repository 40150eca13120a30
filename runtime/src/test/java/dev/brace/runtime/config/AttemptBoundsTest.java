package dev.brace.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The rule the processor and the registry share: one attempt fits in the retry's maxDuration. */
class AttemptBoundsTest {
  private static final Duration LIMIT = Duration.ofSeconds(2);

  private static List<Kind> exceeding(Map<Kind, Duration> bounds) {
    return AttemptBounds.exceeding(LIMIT, kind -> Optional.ofNullable(bounds.get(kind)));
  }

  @Test
  void aTimeoutOrAWaitLongerThanTheLimitDoesNotFit() {
    assertEquals(List.of(Kind.TIMEOUT), exceeding(Map.of(Kind.TIMEOUT, Duration.ofMillis(2001))));
    assertEquals(List.of(Kind.RATELIMIT), exceeding(Map.of(Kind.RATELIMIT, Duration.ofSeconds(3))));
    assertEquals(List.of(Kind.BULKHEAD), exceeding(Map.of(Kind.BULKHEAD, Duration.ofSeconds(3))));
  }

  @Test
  void aBoundEqualToTheLimitFits() {
    assertEquals(List.of(), exceeding(Map.of(Kind.TIMEOUT, LIMIT, Kind.RATELIMIT, LIMIT, Kind.BULKHEAD, LIMIT)));
    assertEquals(List.of(), exceeding(Map.of(Kind.TIMEOUT, Duration.ofMillis(1999), Kind.BULKHEAD, Duration.ZERO)));
  }

  @Test
  void everyBoundThatDoesNotFitIsNamedTimeoutFirstThenLimiterThenBulkhead() {
    Map<Kind, Duration> all = new EnumMap<>(Kind.class);
    all.put(Kind.BULKHEAD, Duration.ofSeconds(5));
    all.put(Kind.RATELIMIT, Duration.ofSeconds(4));
    all.put(Kind.TIMEOUT, Duration.ofSeconds(3));
    assertEquals(List.of(Kind.TIMEOUT, Kind.RATELIMIT, Kind.BULKHEAD), exceeding(all));
  }

  @Test
  void onlyTheThreeBoundingPatternsAreAskedAndOthersAreIgnored() {
    List<Kind> asked = new java.util.ArrayList<>();
    AttemptBounds.exceeding(LIMIT, kind -> {
      asked.add(kind);
      return Optional.of(Duration.ofHours(1));
    });
    assertEquals(List.of(Kind.TIMEOUT, Kind.RATELIMIT, Kind.BULKHEAD), asked);
  }

  @Test
  void eachBoundingPatternNamesTheAttributeThatBoundsAnAttempt() {
    assertEquals("value", AttemptBounds.attribute(Kind.TIMEOUT));
    assertEquals("maxWait", AttemptBounds.attribute(Kind.RATELIMIT));
    assertEquals("maxWait", AttemptBounds.attribute(Kind.BULKHEAD));
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> AttemptBounds.attribute(Kind.RETRY));
    assertEquals("RETRY does not bound how long an attempt takes", refused.getMessage());
  }

  @Test
  void theAttributesAreTheOnesTheBuiltConfigsCarry() {
    assertEquals(Duration.ofSeconds(3), TimeoutConfig.builder("t").duration("3s").build().values().get(AttemptBounds.attribute(Kind.TIMEOUT)));
    assertEquals(Duration.ofSeconds(4), RateLimitConfig.builder("r").permits(10).maxWait("4s").build().values().get(AttemptBounds.attribute(Kind.RATELIMIT)));
    assertEquals(Duration.ofSeconds(5), BulkheadConfig.builder("b").maxWait("5s").build().values().get(AttemptBounds.attribute(Kind.BULKHEAD)));
  }
}
