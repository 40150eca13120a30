package dev.brace.reliability;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line per test run on standard output, in a fixed shape that docs/reliability.md tells readers
 * to grep for: {@code [reliability] <test> mode=<quick|long> <key>=<value> ...}.
 */
public final class Report {
  private final String test;
  private final long startedNanos = System.nanoTime();
  private final Map<String, Object> values = new LinkedHashMap<>();

  /** @param test the name printed first */
  public Report(String test) {
    this.test = test;
  }

  /**
   * @param key what is counted
   * @param value its value
   * @return this report
   */
  public Report put(String key, Object value) {
    values.put(key, value);
    return this;
  }

  /** Prints the line, with the elapsed time since the report was created. */
  public void print() {
    StringBuilder line = new StringBuilder("[reliability] ").append(test).append(" mode=").append(Budget.mode());
    values.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
    line.append(" seconds=").append(String.format("%.1f", (System.nanoTime() - startedNanos) / 1e9));
    System.out.println(line);
  }
}
