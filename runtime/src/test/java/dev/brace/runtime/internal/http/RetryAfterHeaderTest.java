package dev.brace.runtime.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both forms of {@code Retry-After}, read as leniently as the frameworks read them. */
class RetryAfterHeaderTest {
  /** Sun, 06 Nov 1994 08:49:37 GMT: RFC 9110's own example date. */
  private static final Instant RFC_EXAMPLE = Instant.parse("1994-11-06T08:49:37Z");
  private static final Instant TEN_BEFORE = RFC_EXAMPLE.minusSeconds(10);

  @Test
  void delaySecondsAreTheWait() {
    assertEquals(Duration.ofSeconds(120), RetryAfterHeader.parse("120", TEN_BEFORE));
    assertEquals(Duration.ZERO, RetryAfterHeader.parse("0", TEN_BEFORE));
    assertEquals(Duration.ofSeconds(3), RetryAfterHeader.parse("  3 \t", TEN_BEFORE), "spaces around it");
    assertEquals(Duration.ofMillis(1500), RetryAfterHeader.parse("1.5", TEN_BEFORE), "fractions, as some servers send");
    assertEquals(Duration.ofSeconds(10), RetryAfterHeader.parse("10.000", TEN_BEFORE), "Feign accepts this form");
  }

  @Test
  void aHugeNumberOfSecondsSaturatesInsteadOfOverflowing() {
    assertEquals(Duration.ofSeconds(Long.MAX_VALUE), RetryAfterHeader.parse("99999999999999999999999999", TEN_BEFORE));
    assertEquals(Duration.ofSeconds(Long.MAX_VALUE), RetryAfterHeader.parse(Long.toString(Long.MAX_VALUE), TEN_BEFORE));
  }

  @Test
  void anHttpDateIsTheTimeUntilThatInstant() {
    Duration ten = Duration.ofSeconds(10);
    assertEquals(ten, RetryAfterHeader.parse("Sun, 06 Nov 1994 08:49:37 GMT", TEN_BEFORE), "IMF-fixdate");
    assertEquals(ten, RetryAfterHeader.parse("Sunday, 06-Nov-94 08:49:37 GMT", TEN_BEFORE), "RFC 850");
    assertEquals(ten, RetryAfterHeader.parse("Sun Nov  6 08:49:37 1994", TEN_BEFORE), "asctime");
  }

  @Test
  void anHttpDateIsReadLeniently() {
    Duration ten = Duration.ofSeconds(10);
    assertEquals(ten, RetryAfterHeader.parse("Mon, 06 Nov 1994 08:49:37 GMT", TEN_BEFORE), "a wrong weekday is ignored");
    assertEquals(ten, RetryAfterHeader.parse("06 Nov 1994 08:49:37 GMT", TEN_BEFORE), "no weekday");
    assertEquals(ten, RetryAfterHeader.parse("sun, 6 nov 1994 08:49:37 utc", TEN_BEFORE), "case, one-digit day, UTC");
    assertEquals(ten, RetryAfterHeader.parse("Sun, 06 Nov 1994 09:49:37 +0100", TEN_BEFORE), "a numeric offset");
    assertEquals(ten, RetryAfterHeader.parse("Sun,  06  Nov 1994   08:49:37 Z", TEN_BEFORE), "runs of spaces");
  }

  @Test
  void aTwoDigitYearMoreThanFiftyYearsAheadIsInThePast() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    assertEquals(Duration.ofSeconds(60), RetryAfterHeader.parse("Thursday, 01-Jan-26 00:01:00 GMT", now));
    assertEquals(Duration.ZERO, RetryAfterHeader.parse("Sunday, 06-Nov-94 08:49:37 GMT", now), "1994, not 2094");
  }

  @Test
  void aDatePastIsNoWait() {
    assertEquals(Duration.ZERO, RetryAfterHeader.parse("Sun, 06 Nov 1994 08:49:37 GMT", RFC_EXAMPLE.plusSeconds(5)));
    assertEquals(Duration.ZERO, RetryAfterHeader.parse("Sun, 06 Nov 1994 08:49:37 GMT", RFC_EXAMPLE));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   ", "soon", "-1", "+5", "1e3", "1,5", "0x10", "Sun, 06 Nov 1994 08:49:37",
      "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
      "Sun, 06 Novem 1994 08:49:37 GMT", "Sun, ", ",", "Sun Nov 6 08:49:37", "1994-11-06T08:49:37Z"})
  void aMalformedValueSaysNothing(String value) {
    assertNull(RetryAfterHeader.parse(value, TEN_BEFORE), value);
  }

  @Test
  void anAbsentHeaderSaysNothing() {
    assertNull(RetryAfterHeader.parse(null, TEN_BEFORE));
  }
}
