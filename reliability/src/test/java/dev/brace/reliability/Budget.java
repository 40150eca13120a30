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

  /** @return {@code "quick"} or {@code "long"}, for the printed summaries */
  public static String mode() {
    return longMode() ? "long" : "quick";
  }
}
