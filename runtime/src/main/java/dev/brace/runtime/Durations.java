package dev.brace.runtime;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration grammar of Brace, shared by the annotation processor (at compile time) and by
 * configuration (at run time): a decimal number followed by a unit {@code ns us ms s m h}
 * ({@code "250ms"}, {@code "1.5s"}), or an ISO-8601 duration ({@code "PT1S"}). Negative values are
 * refused.
 */
public final class Durations {

  /** What the grammar accepts, for error messages. */
  public static final String ACCEPTED_FORM =
      "a decimal number and a unit ns, us, ms, s, m or h (\"250ms\", \"1.5s\"), or ISO-8601 (\"PT1S\")";

  /** The longest duration the grammar accepts, for error messages: what fits in a {@code long} of nanoseconds. */
  public static final String LONGEST = "about 292 years (Long.MAX_VALUE nanoseconds)";

  private static final Pattern NUMBER_AND_UNIT =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|m|h)");

  private Durations() {}

  /**
   * Parses a duration.
   *
   * @param text the duration, e.g. {@code "100ms"}
   * @return the duration, never negative
   * @throws IllegalArgumentException naming the text and the accepted form when it does not parse
   * @throws NullPointerException when {@code text} is null
   */
  public static Duration parse(String text) {
    if (text == null) {
      throw new NullPointerException("duration text is null");
    }
    String trimmed = text.trim();
    Matcher matcher = NUMBER_AND_UNIT.matcher(trimmed);
    if (matcher.matches()) {
      BigDecimal amount = new BigDecimal(matcher.group(1));
      BigDecimal nanosPerUnit = BigDecimal.valueOf(nanosPerUnit(matcher.group(2)));
      BigDecimal nanos = amount.multiply(nanosPerUnit);
      if (nanos.stripTrailingZeros().scale() > 0) {
        throw new IllegalArgumentException(
            "\"" + text + "\" is finer than one nanosecond; expected " + ACCEPTED_FORM);
      }
      try {
        return Duration.ofNanos(nanos.longValueExact());
      } catch (ArithmeticException tooLarge) {
        throw new IllegalArgumentException("\"" + text + "\" is too long for a duration; the longest is " + LONGEST);
      }
    }
    if (trimmed.length() > 1 && (trimmed.charAt(0) == 'P' || trimmed.charAt(0) == 'p')) {
      try {
        Duration parsed = Duration.parse(trimmed);
        if (parsed.isNegative()) {
          throw new IllegalArgumentException("\"" + text + "\" is negative; expected " + ACCEPTED_FORM);
        }
        return parsed;
      } catch (DateTimeParseException notIso) {
        // fall through to the common message
      }
    }
    throw new IllegalArgumentException("\"" + text + "\" is not a duration; expected " + ACCEPTED_FORM);
  }

  /**
   * Writes a duration the way the grammar reads it, in the largest unit that keeps it whole.
   *
   * @param duration a non-negative duration
   * @return e.g. {@code "1500ms"}, {@code "2s"}
   */
  public static String describe(Duration duration) {
    long nanos;
    try {
      nanos = duration.toNanos();
    } catch (ArithmeticException huge) {
      return duration.toString();
    }
    if (nanos == 0) {
      return "0ms";
    }
    String[] units = {"h", "m", "s", "ms", "us", "ns"};
    for (String unit : units) {
      long per = nanosPerUnit(unit);
      if (nanos % per == 0) {
        return (nanos / per) + unit;
      }
    }
    return nanos + "ns";
  }

  private static long nanosPerUnit(String unit) {
    switch (unit) {
      case "ns":
        return 1L;
      case "us":
        return 1_000L;
      case "ms":
        return 1_000_000L;
      case "s":
        return 1_000_000_000L;
      case "m":
        return 60_000_000_000L;
      case "h":
        return 3_600_000_000_000L;
      default:
        throw new IllegalArgumentException("unknown unit " + unit);
    }
  }
}
