package dev.brace.runtime.internal.http;

import dev.brace.runtime.internal.Message;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Date;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * The {@code Retry-After} of a failed response as the HTTP client frameworks keep it in their
 * exceptions: Spring's {@code RestClientResponseException} ({@code HttpClientErrorException},
 * {@code HttpServerErrorException} and their subclasses) and {@code WebClientResponseException},
 * Feign's {@code FeignException} (and the instant a {@code RetryableException} was told), and
 * Retrofit's {@code HttpException}.
 *
 * <p>Brace depends on none of them. An exception is recognised by the names of the classes in its
 * hierarchy; the accessors are looked up once per concrete exception class and called by
 * reflection, only when a call has failed. A class that is no framework's costs one walk up its
 * hierarchy, once.
 */
public final class FrameworkRetryAfter {

  private static final ClassValue<Reader> READERS = new ClassValue<>() {
    @Override
    protected Reader computeValue(Class<?> type) {
      return Reader.of(type);
    }
  };

  private FrameworkRetryAfter() {}

  /**
   * @param failure any throwable; its causes are not looked at
   * @param wallClock what "now" is for a header that gives an HTTP date
   * @return the hint the failure's response carried, zero for a date already past; or null when
   *     it is no framework's HTTP exception, or its response had no readable {@code Retry-After}
   */
  public static Duration of(Throwable failure, Clock wallClock) {
    return READERS.get(failure.getClass()).read(failure, wallClock);
  }

  /** How to reach the header from one exception class; {@link #NONE} for a class of no framework. */
  private abstract static class Reader {
    static final Reader NONE = new Reader() {
      @Override
      Duration read(Throwable failure, Clock wallClock) {
        return null;
      }
    };

    /** @return the hint, or null; never throws, whatever the framework's accessors do */
    abstract Duration read(Throwable failure, Clock wallClock);

    static Reader of(Class<?> type) {
      for (Class<?> level = type; level != null && level != Throwable.class; level = level.getSuperclass()) {
        String framework = null;
        try {
          switch (level.getName()) {
            case "org.springframework.web.client.RestClientResponseException":
              framework = "Spring RestClient";
              return new HeaderObject(level.getMethod("getResponseHeaders"));
            case "org.springframework.web.reactive.function.client.WebClientResponseException":
              framework = "Spring WebClient";
              return new HeaderObject(level.getMethod("getHeaders"));
            case "feign.RetryableException":
              framework = "Feign";
              return new FeignHeaders(level.getMethod("responseHeaders"), level.getMethod("retryAfter"));
            case "feign.FeignException":
              framework = "Feign";
              return new FeignHeaders(level.getMethod("responseHeaders"), null);
            case "retrofit2.HttpException":
              framework = "Retrofit";
              return new RetrofitHeaders(level.getMethod("response"));
            default:
              break;
          }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException unlike) {
          // Another version of the framework than Brace knows: say so once, then do without.
          LoggerFactory.getLogger("dev.brace")
              .warn(Message.RETRY_AFTER_UNREADABLE.format(type.getName(), framework, unlike));
          return NONE;
        }
      }
      return NONE;
    }
  }

  /**
   * Spring: the exception holds an {@code HttpHeaders}, whose {@code getFirst} is case-insensitive
   * (and exists both in Spring 6, where it is a {@code MultiValueMap}, and in Spring 7).
   */
  private static final class HeaderObject extends Reader {
    private final Method headers;
    private final Method first;

    HeaderObject(Method headers) throws NoSuchMethodException {
      this.headers = headers;
      this.first = headers.getReturnType().getMethod("getFirst", String.class);
    }

    @Override
    Duration read(Throwable failure, Clock wallClock) {
      try {
        Object all = headers.invoke(failure);
        Object value = all == null ? null : first.invoke(all, RetryAfterHeader.NAME);
        return value instanceof String ? RetryAfterHeader.parse((String) value, wallClock.instant()) : null;
      } catch (ReflectiveOperationException | RuntimeException unreadable) {
        return null;
      }
    }
  }

  /**
   * Feign: the response's headers as a map (case-insensitive when Feign made it, looked up either
   * way). A {@code RetryableException} built by Feign's default error decoder carries no headers of
   * its own but the instant the header named, in epoch milliseconds ({@code Long}; Feign 12 and
   * older: a {@code Date}).
   */
  private static final class FeignHeaders extends Reader {
    private final Method headers;
    private final Method retryAfterInstant;

    FeignHeaders(Method headers, Method retryAfterInstant) {
      this.headers = headers;
      this.retryAfterInstant = retryAfterInstant;
    }

    @Override
    Duration read(Throwable failure, Clock wallClock) {
      try {
        Duration fromHeader = RetryAfterHeader.parse(firstValue(headers.invoke(failure)), wallClock.instant());
        if (fromHeader != null || retryAfterInstant == null) {
          return fromHeader;
        }
        Object at = retryAfterInstant.invoke(failure);
        long atMillis;
        if (at instanceof Long) {
          atMillis = (Long) at;
        } else if (at instanceof Date) {
          atMillis = ((Date) at).getTime();
        } else {
          return null;
        }
        return Duration.ofMillis(Math.max(0, atMillis - wallClock.millis()));
      } catch (ReflectiveOperationException | RuntimeException unreadable) {
        return null;
      }
    }

    private static String firstValue(Object headers) {
      if (!(headers instanceof Map)) {
        return null;
      }
      Object values = ((Map<?, ?>) headers).get(RetryAfterHeader.NAME);
      if (values == null) {
        for (Map.Entry<?, ?> header : ((Map<?, ?>) headers).entrySet()) {
          if (header.getKey() instanceof String && RetryAfterHeader.NAME.equalsIgnoreCase((String) header.getKey())) {
            values = header.getValue();
            break;
          }
        }
      }
      if (values instanceof Collection && !((Collection<?>) values).isEmpty()) {
        Object first = ((Collection<?>) values).iterator().next();
        return first instanceof String ? (String) first : null;
      }
      return null;
    }
  }

  /** Retrofit: {@code response().headers().get(name)}, OkHttp's case-insensitive lookup. */
  private static final class RetrofitHeaders extends Reader {
    private final Method response;
    private final Method headers;
    private final Method get;

    RetrofitHeaders(Method response) throws NoSuchMethodException {
      this.response = response;
      this.headers = response.getReturnType().getMethod("headers");
      this.get = headers.getReturnType().getMethod("get", String.class);
    }

    @Override
    Duration read(Throwable failure, Clock wallClock) {
      try {
        Object answer = response.invoke(failure);
        Object all = answer == null ? null : headers.invoke(answer);
        Object value = all == null ? null : get.invoke(all, RetryAfterHeader.NAME);
        return value instanceof String ? RetryAfterHeader.parse((String) value, wallClock.instant()) : null;
      } catch (ReflectiveOperationException | RuntimeException unreadable) {
        return null;
      }
    }
  }
}
