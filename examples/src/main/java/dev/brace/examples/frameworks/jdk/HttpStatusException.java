package dev.brace.examples.frameworks.jdk;

import dev.brace.runtime.RetryAfterHint;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The service answered with an error status. Its {@code Retry-After} (seconds or an HTTP date)
 * becomes the {@link RetryAfterHint}, which the frameworks' own exceptions need not do: Brace reads
 * their headers itself.
 */
public class HttpStatusException extends IOException implements RetryAfterHint {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient Duration retryAfter;

  /**
   * @param status the answer's status
   * @param message what happened
   * @param retryAfter the answer's {@code Retry-After}, or null
   */
  public HttpStatusException(int status, String message, Duration retryAfter) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }

  /**
   * @param response an answer that is not 2xx
   * @param clock what "now" is for an HTTP date
   * @return the exception that fits its status
   */
  public static HttpStatusException of(HttpResponse<?> response, Clock clock) {
    int status = response.statusCode();
    String message = status + " from " + response.request().uri();
    Duration retryAfter = response.headers().firstValue("Retry-After").map(value -> parse(value, clock)).orElse(null);
    if (status == 429) {
      return new TooManyRequests(message, retryAfter);
    }
    if (status >= 400 && status < 500) {
      return new ClientError(status, message);
    }
    return new HttpStatusException(status, message, retryAfter);
  }

  /** @return the answer's status */
  public int status() {
    return status;
  }

  @Override
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  private static Duration parse(String value, Clock clock) {
    String text = value.trim();
    try {
      return Duration.ofSeconds(Long.parseLong(text));
    } catch (NumberFormatException notSeconds) {
      try {
        Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Duration until = Duration.between(clock.instant(), at);
        return until.isNegative() ? Duration.ZERO : until;
      } catch (DateTimeParseException neither) {
        return null;
      }
    }
  }

  /** 429: the service throttles. */
  public static final class TooManyRequests extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    TooManyRequests(String message, Duration retryAfter) {
      super(429, message, retryAfter);
    }
  }

  /** A 4xx other than 429: the request is at fault, and another attempt would not change that. */
  public static final class ClientError extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    ClientError(int status, String message) {
      super(status, message, null);
    }
  }
}
