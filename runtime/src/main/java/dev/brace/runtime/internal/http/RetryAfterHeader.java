package dev.brace.runtime.internal.http;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The value of a {@code Retry-After} header: delay seconds, or an HTTP date. Read as leniently as
 * the client frameworks read it: besides RFC 9110's IMF-fixdate, its obsolete RFC 850 and asctime
 * forms, any zone written as GMT, UTC, UT, Z or a numeric offset, a weekday that is ignored (servers
 * get it wrong), fractional seconds, and spaces around it all.
 */
public final class RetryAfterHeader {
  /** The header's name, as the frameworks' case-insensitive lookups take it. */
  public static final String NAME = "Retry-After";

  private static final Pattern SECONDS = Pattern.compile("\\d+(\\.\\d+)?");
  private static final Pattern OFFSET = Pattern.compile("[+-]\\d{4}");
  private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
  /** IMF-fixdate without weekday and zone: {@code 06 Nov 1994 08:49:37}. */
  private static final DateTimeFormatter IMF = formatter("d MMM uuuu HH:mm:ss");
  /** asctime without weekday: {@code Nov 6 08:49:37 1994}, always GMT. */
  private static final DateTimeFormatter ASCTIME = formatter("MMM d HH:mm:ss uuuu");

  private RetryAfterHeader() {}

  /**
   * @param value the header's value as sent, or null when absent
   * @param now the wall-clock instant the answer arrived, which an HTTP date is measured from
   * @return how long the server asked to be left alone, zero for a date already past; or null when
   *     {@code value} is absent or neither form (a malformed header says nothing)
   */
  public static Duration parse(String value, Instant now) {
    if (value == null) {
      return null;
    }
    String text = value.trim().replaceAll("\\s+", " ");
    if (text.isEmpty()) {
      return null;
    }
    if (SECONDS.matcher(text).matches()) {
      return seconds(text);
    }
    Instant at = date(text, now);
    if (at == null) {
      return null;
    }
    return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
  }

  /** Delay seconds, saturated rather than overflowing: a cap applies later anyway. */
  private static Duration seconds(String text) {
    BigDecimal seconds = new BigDecimal(text);
    if (seconds.compareTo(MAX_SECONDS) >= 0) {
      return Duration.ofSeconds(Long.MAX_VALUE);
    }
    long whole = seconds.longValue();
    long nanos = seconds.subtract(BigDecimal.valueOf(whole)).multiply(NANOS_PER_SECOND).longValue();
    return Duration.ofSeconds(whole, nanos);
  }

  private static Instant date(String text, Instant now) {
    // The weekday before a comma is left unchecked: servers get it wrong, and it adds nothing.
    int comma = text.indexOf(',');
    String date = comma >= 0 ? text.substring(comma + 1).trim() : text;
    try {
      Instant zoned = zoned(date, now);
      return zoned != null ? zoned : asctime(date);
    } catch (DateTimeException malformed) {
      return null;
    }
  }

  /** IMF-fixdate or RFC 850 without the weekday: the date, the time, then the zone. */
  private static Instant zoned(String date, Instant now) {
    int zoneStart = date.lastIndexOf(' ');
    ZoneOffset zone = zoneStart < 0 ? null : zone(date.substring(zoneStart + 1));
    if (zone == null) {
      return null;
    }
    String dateTime = date.substring(0, zoneStart);
    DateTimeFormatter format = dateTime.indexOf('-') > 0 ? rfc850(now) : IMF;
    return LocalDateTime.parse(dateTime, format).toInstant(zone);
  }

  /** asctime, always GMT: {@code Sun Nov  6 08:49:37 1994}, spaces collapsed, weekday optional. */
  private static Instant asctime(String date) {
    String[] words = date.split(" ", 2);
    boolean weekdayFirst = words.length == 2 && Character.isLetter(date.charAt(0))
        && !words[1].isEmpty() && Character.isLetter(words[1].charAt(0));
    return LocalDateTime.parse(weekdayFirst ? words[1] : date, ASCTIME).toInstant(ZoneOffset.UTC);
  }

  private static ZoneOffset zone(String zone) {
    switch (zone.toUpperCase(Locale.ROOT)) {
      case "GMT":
      case "UTC":
      case "UT":
      case "Z":
        return ZoneOffset.UTC;
      default:
        if (!OFFSET.matcher(zone).matches()) {
          return null;
        }
        int hours = Integer.parseInt(zone.substring(1, 3));
        int minutes = Integer.parseInt(zone.substring(3, 5));
        int sign = zone.charAt(0) == '-' ? -1 : 1;
        return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
    }
  }

  /**
   * RFC 850's two-digit year names the year within 50 of {@code now}: one that would be more than
   * 50 years ahead is the most recent past year with those digits, as RFC 9110 asks.
   */
  private static DateTimeFormatter rfc850(Instant now) {
    int thisYear = now.atOffset(ZoneOffset.UTC).getYear();
    return new DateTimeFormatterBuilder()
        .parseCaseInsensitive()
        .appendPattern("d-MMM-")
        .appendValueReduced(ChronoField.YEAR, 2, 2, thisYear - 49)
        .appendPattern(" HH:mm:ss")
        .toFormatter(Locale.US);
  }

  private static DateTimeFormatter formatter(String pattern) {
    return new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern(pattern).toFormatter(Locale.US);
  }
}
