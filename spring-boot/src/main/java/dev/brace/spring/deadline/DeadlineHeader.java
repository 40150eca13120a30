package dev.brace.spring.deadline;

import dev.brace.runtime.Deadline;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request header that carries a deadline between services, as milliseconds the request has
 * left ({@code Request-Timeout: 1500}, Envoy's {@code x-envoy-expected-rq-timeout-ms: 1500}): read
 * from each incoming request, written on each outgoing one made under a deadline.
 *
 * <p>A value that is not a whole number of milliseconds is ignored, never a failed request: the
 * request runs as if it carried no header, and one WARN is logged per shape of bad value (its
 * letters, digits and the rest told apart), so a caller sending {@code 1.5s} on every request logs
 * once, not once per request. Thread-safe.
 */
public final class DeadlineHeader {
  private static final Logger LOG = LoggerFactory.getLogger("dev.brace.deadline");
  /** Shapes already warned about; bounded, so hostile values cannot grow it without end. */
  private static final int MOST_SHAPES = 256;

  private final String name;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  /**
   * @param name the header's name
   * @throws IllegalArgumentException when the name is blank
   * @throws NullPointerException when it is null
   */
  public DeadlineHeader(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("brace.deadline.header is blank; name a request header, e.g. Request-Timeout");
    }
    this.name = name.trim();
  }

  /** @return the header's name */
  public String name() {
    return name;
  }

  /**
   * @param value the header's value as received, or null when the request has none
   * @return the deadline it gives, from now on the system clock; empty when there is none or the
   *     value is malformed (logged once per shape). {@code 0} is a deadline that has passed.
   */
  public Optional<Deadline> read(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String trimmed = value.trim();
    long millis = parse(trimmed);
    if (millis < 0) {
      String shape = shapeOf(trimmed);
      if (warned.size() < MOST_SHAPES && warned.add(shape)) {
        LOG.warn("ignored {}: \"{}\" is not a whole number of milliseconds; requests with such a value run without"
            + " a deadline (logged once for values shaped {})", name, abbreviated(trimmed), shape);
      }
      return Optional.empty();
    }
    // No time left at all still opens a deadline: one that has already passed.
    Duration budget = millis == 0 ? Duration.ofNanos(1) : Duration.ofMillis(millis);
    return Optional.of(Deadline.after(budget));
  }

  /**
   * @param deadline the deadline an outgoing request is made under
   * @return the header value: the whole milliseconds left, {@code 0} once it has passed
   */
  public String write(Deadline deadline) {
    return Long.toString(deadline.remaining().toMillis());
  }

  /** @return the milliseconds, or -1 when the text is not 1 to 18 digits */
  private static long parse(String text) {
    if (text.isEmpty() || text.length() > 18) {
      return -1;
    }
    long millis = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      millis = millis * 10 + (c - '0');
    }
    return millis;
  }

  /** Digits become 9, letters a, runs of one kind collapse: {@code 1.5s} and {@code 2.25s} are one shape, {@code 9.9a}. */
  static String shapeOf(String text) {
    StringBuilder shape = new StringBuilder();
    char last = 0;
    for (int i = 0; i < text.length() && shape.length() < 32; i++) {
      char c = text.charAt(i);
      char kind = Character.isDigit(c) ? '9' : Character.isLetter(c) ? 'a' : c;
      if (kind != last || (kind != '9' && kind != 'a')) {
        shape.append(kind);
      }
      last = kind;
    }
    return shape.length() == 0 ? "(empty)" : shape.toString();
  }

  private static String abbreviated(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "…";
  }
}
