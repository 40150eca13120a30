package dev.brace.reliability;

import java.time.Duration;

/**
 * How hard the suite works: quick by default (part of every {@code mvn verify}), long with {@code
 * -Dreliability.long=true} or the Maven profile {@code reliability-long}.
 */
public final class Budget {
  private Budget() {}

  /** @return whether the long mode was asked for */
  public static boolean longMode() {
    return Boolean.getBoolean("reliability.long");
  }

  /**
   * @param quick the value in quick mode
   * @param thorough the value in long mode
   * @return the one for the mode in force
   */
  public static int pick(int quick, int thorough) {
    return longMode() ? thorough : quick;
  }

  /**
   * @param quick the duration in quick mode
   * @param thorough the duration in long mode
   * @return the one for the mode in force
   */
  public static Duration pick(Duration quick, Duration thorough) {
    return longMode() ? thorough : quick;
  }

  /** The longest soak {@code -Dreliability.soak.minutes} accepts; a soak's own time limit is set past it. */
  public static final int LONGEST_SOAK_MINUTES = 120;

  /**
   * A soak's length: {@code quick} in quick mode; in long mode the minutes {@code
   * -Dreliability.soak.minutes} gives (at most {@link #LONGEST_SOAK_MINUTES}), else {@code thorough}.
   *
   * @param quick the length in quick mode
   * @param thorough the long mode's length when no minutes are given
   * @return the length for the mode in force
   * @throws IllegalArgumentException when the minutes are not a whole number from 1 to {@link
   *     #LONGEST_SOAK_MINUTES}
   */
  public static Duration soak(Duration quick, Duration thorough) {
    if (!longMode()) {
      return quick;
    }
    String minutes = System.getProperty("reliability.soak.minutes");
    if (minutes == null) {
      return thorough;
    }
    try {
      long value = Long.parseLong(minutes.trim());
      if (value > 0 && value <= LONGEST_SOAK_MINUTES) {
        return Duration.ofMinutes(value);
      }
    } catch (NumberFormatException notANumber) {
      // reported below with the value as given
    }
    throw new IllegalArgumentException(
        "-Dreliability.soak.minutes must be a whole number of minutes from 1 to " + LONGEST_SOAK_MINUTES
            + ", not '" + minutes + "'");
  }

  /** @return {@code "quick"} or {@code "long"}, for the printed summaries */
  public static String mode() {
    return longMode() ? "long" : "quick";
  }
}
