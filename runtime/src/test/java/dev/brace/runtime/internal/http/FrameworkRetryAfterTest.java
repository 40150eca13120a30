package dev.brace.runtime.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import feign.FeignException;
import feign.Request;
import feign.RetryableException;
import feign.codec.ErrorDecoder;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.tools.ToolProvider;
import okhttp3.Protocol;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import retrofit2.HttpException;

/**
 * The Retry-After of each framework's own exception, built as the framework builds it when a
 * response fails; on a fixed wall clock, so an HTTP date is exact.
 */
class FrameworkRetryAfterTest {
  private static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  /** Five seconds after {@link #NOW}. */
  private static final String DATE_IN_FIVE = "Mon, 02 Mar 2026 10:00:05 GMT";
  private static final String DATE_PAST = "Mon, 02 Mar 2026 09:59:00 GMT";

  // --- Spring RestClient / RestTemplate ---------------------------------------------------

  @Test
  void springRestClientTooManyRequestsInBothForms() {
    HttpClientErrorException seconds = spring(HttpStatus.TOO_MANY_REQUESTS, "7");
    assertInstanceOf(HttpClientErrorException.TooManyRequests.class, seconds, "the exception RestClient throws on 429");
    assertEquals(Duration.ofSeconds(7), FrameworkRetryAfter.of(seconds, CLOCK));
    assertEquals(Duration.ofSeconds(5), FrameworkRetryAfter.of(spring(HttpStatus.TOO_MANY_REQUESTS, DATE_IN_FIVE), CLOCK));
  }

  @Test
  void springRestClientServiceUnavailableInBothForms() {
    HttpServerErrorException seconds = (HttpServerErrorException) springServer(HttpStatus.SERVICE_UNAVAILABLE, "2");
    assertInstanceOf(HttpServerErrorException.ServiceUnavailable.class, seconds);
    assertEquals(Duration.ofSeconds(2), FrameworkRetryAfter.of(seconds, CLOCK));
    assertEquals(Duration.ofSeconds(5), FrameworkRetryAfter.of(springServer(HttpStatus.SERVICE_UNAVAILABLE, DATE_IN_FIVE), CLOCK));
  }

  @Test
  void springRestClientEdges() {
    assertEquals(Duration.ZERO, FrameworkRetryAfter.of(spring(HttpStatus.TOO_MANY_REQUESTS, DATE_PAST), CLOCK));
    assertNull(FrameworkRetryAfter.of(spring(HttpStatus.TOO_MANY_REQUESTS, "in a while"), CLOCK), "malformed: no hint");
    assertNull(FrameworkRetryAfter.of(spring(HttpStatus.TOO_MANY_REQUESTS, null), CLOCK), "no header");
    RestClientResponseException withoutHeaders =
        new RestClientResponseException("503", HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable", null, null, null);
    assertNull(FrameworkRetryAfter.of(withoutHeaders, CLOCK), "no headers at all");
    HttpHeaders lowerCase = new HttpHeaders();
    lowerCase.add("retry-after", "4");
    assertEquals(Duration.ofSeconds(4), FrameworkRetryAfter.of(
        HttpClientErrorException.create(HttpStatus.TOO_MANY_REQUESTS, "Too Many Requests", lowerCase, null, null), CLOCK),
        "header names are case-insensitive");
    assertNull(FrameworkRetryAfter.of(new ResourceAccessException("I/O error", new IOException("reset")), CLOCK),
        "an I/O failure has no response; its cause is not this reader's business");
  }

  // --- Spring WebClient -------------------------------------------------------------------

  @Test
  void springWebClientInBothForms() {
    WebClientResponseException seconds = WebClientResponseException.create(
        429, "Too Many Requests", headers("3"), new byte[0], StandardCharsets.UTF_8);
    assertInstanceOf(WebClientResponseException.TooManyRequests.class, seconds);
    assertEquals(Duration.ofSeconds(3), FrameworkRetryAfter.of(seconds, CLOCK));
    assertEquals(Duration.ofSeconds(5), FrameworkRetryAfter.of(WebClientResponseException.create(
        503, "Service Unavailable", headers(DATE_IN_FIVE), new byte[0], StandardCharsets.UTF_8), CLOCK));
    assertNull(FrameworkRetryAfter.of(WebClientResponseException.create(
        503, "Service Unavailable", headers("-3"), new byte[0], StandardCharsets.UTF_8), CLOCK), "malformed");
  }

  // --- Feign ------------------------------------------------------------------------------

  @Test
  void feignErrorStatusInBothForms() {
    FeignException seconds = FeignException.errorStatus("Items#item(String)", feignResponse(429, "6"));
    assertInstanceOf(FeignException.TooManyRequests.class, seconds, "what Feign's decoder makes of a 429");
    assertEquals(Duration.ofSeconds(6), FrameworkRetryAfter.of(seconds, CLOCK));
    assertEquals(Duration.ofSeconds(5), FrameworkRetryAfter.of(
        FeignException.errorStatus("Items#item(String)", feignResponse(503, DATE_IN_FIVE)), CLOCK));
    assertEquals(Duration.ZERO, FrameworkRetryAfter.of(
        FeignException.errorStatus("Items#item(String)", feignResponse(503, DATE_PAST)), CLOCK));
    assertNull(FrameworkRetryAfter.of(
        FeignException.errorStatus("Items#item(String)", feignResponse(503, "later")), CLOCK), "malformed");
    assertNull(FrameworkRetryAfter.of(
        FeignException.errorStatus("Items#item(String)", feignResponse(503, null)), CLOCK), "no header");
  }

  @Test
  void feignDefaultDecoderMakesARetryableExceptionThatCarriesTheInstant() {
    // ErrorDecoder.Default turns a response with Retry-After into a RetryableException holding the
    // instant (from Feign's own clock), its headers on the FeignException it wraps.
    Exception decoded = new ErrorDecoder.Default().decode("Items#item(String)", feignResponse(503, "30"));
    assertInstanceOf(RetryableException.class, decoded);
    Duration hint = FrameworkRetryAfter.of(decoded, Clock.systemUTC());
    assertTrue(hint.compareTo(Duration.ofSeconds(29)) > 0 && hint.compareTo(Duration.ofSeconds(30)) <= 0, hint.toString());
  }

  @Test
  void feignRetryableExceptionMadeByHand() {
    Request request = feignRequest();
    RetryableException inTwo = new RetryableException(
        503, "busy", Request.HttpMethod.GET, NOW.plusSeconds(2).toEpochMilli(), request);
    assertEquals(Duration.ofSeconds(2), FrameworkRetryAfter.of(inTwo, CLOCK));
    RetryableException asDate = new RetryableException(
        503, "busy", Request.HttpMethod.GET, Date.from(NOW.plusSeconds(1)), request);
    assertEquals(Duration.ofSeconds(1), FrameworkRetryAfter.of(asDate, CLOCK), "the Date form Feign 12 used");
    RetryableException past = new RetryableException(
        503, "busy", Request.HttpMethod.GET, NOW.minusSeconds(9).toEpochMilli(), request);
    assertEquals(Duration.ZERO, FrameworkRetryAfter.of(past, CLOCK));
    RetryableException ioFailure = new RetryableException(
        -1, "connect timed out", Request.HttpMethod.GET, new IOException("connect timed out"), (Long) null, request);
    assertNull(FrameworkRetryAfter.of(ioFailure, CLOCK), "Feign's wrapped I/O failure names no time");
    RetryableException withHeader = new RetryableException(503, "busy", Request.HttpMethod.GET,
        NOW.plusSeconds(60).toEpochMilli(), request, new byte[0], feignHeaders("4"));
    assertEquals(Duration.ofSeconds(4), FrameworkRetryAfter.of(withHeader, CLOCK), "the header, read on Brace's clock, wins");
  }

  // --- Retrofit ---------------------------------------------------------------------------

  @Test
  void retrofitHttpExceptionInBothForms() {
    assertEquals(Duration.ofSeconds(8), FrameworkRetryAfter.of(retrofit(429, "8"), CLOCK));
    assertEquals(Duration.ofSeconds(5), FrameworkRetryAfter.of(retrofit(503, DATE_IN_FIVE), CLOCK));
    assertEquals(Duration.ZERO, FrameworkRetryAfter.of(retrofit(503, DATE_PAST), CLOCK));
    assertNull(FrameworkRetryAfter.of(retrofit(503, "Tuesday"), CLOCK), "malformed");
    assertNull(FrameworkRetryAfter.of(retrofit(503, null), CLOCK), "no header");
  }

  // --- anything else ----------------------------------------------------------------------

  @Test
  void aSubclassOfAFrameworkExceptionIsReadLikeIt() {
    class ItemsThrottled extends FeignException.TooManyRequests {
      ItemsThrottled() {
        super("throttled", feignRequest(), new byte[0], feignHeaders("9"));
      }
    }
    assertEquals(Duration.ofSeconds(9), FrameworkRetryAfter.of(new ItemsThrottled(), CLOCK));
  }

  @Test
  void anExceptionOfNoFrameworkHasNoHint() {
    assertNull(FrameworkRetryAfter.of(new IOException("503 Retry-After: 5"), CLOCK));
    assertNull(FrameworkRetryAfter.of(new IllegalStateException(), CLOCK));
    assertNull(FrameworkRetryAfter.of(new OutOfMemoryError(), CLOCK));
  }

  @Test
  void aFrameworkVersionWithOtherAccessorsIsReportedOnceAndGivesNoHint(@TempDir Path sources) throws Exception {
    // A Retrofit of another shape: an HttpException without response(), in a loader of its own.
    Path source = Files.createDirectories(sources.resolve("retrofit2")).resolve("HttpException.java");
    Files.writeString(source, "package retrofit2; public class HttpException extends RuntimeException {}");
    assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", sources.toString(), source.toString()));
    Logger logger = (Logger) LoggerFactory.getLogger("dev.brace");
    Level before = logger.getLevel();
    ListAppender<ILoggingEvent> warnings = new ListAppender<>();
    warnings.start();
    logger.addAppender(warnings);
    logger.setLevel(Level.WARN);
    logger.setAdditive(false);   // read here, not printed
    try (URLClassLoader other = new URLClassLoader(new URL[] {sources.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Class<?> type = other.loadClass("retrofit2.HttpException");
      Throwable failure = (Throwable) type.getConstructor().newInstance();

      assertNull(FrameworkRetryAfter.of(failure, CLOCK));
      assertNull(FrameworkRetryAfter.of(failure, CLOCK));
    } finally {
      logger.setLevel(before);
      logger.setAdditive(true);
      logger.detachAppender(warnings);
    }
    List<String> lines = warnings.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertEquals(1, lines.size(), "once per class: " + lines);
    assertTrue(lines.get(0).startsWith("[brace:retry-after-unreadable] retrofit2.HttpException is Retrofit's HTTP exception"),
        lines.get(0));
    assertTrue(lines.get(0).contains("response()"), "names what is missing: " + lines.get(0));
  }

  private static HttpHeaders headers(String retryAfter) {
    HttpHeaders headers = new HttpHeaders();
    if (retryAfter != null) {
      headers.add("Retry-After", retryAfter);
    }
    return headers;
  }

  private static HttpClientErrorException spring(HttpStatus status, String retryAfter) {
    return HttpClientErrorException.create(status, status.getReasonPhrase(), headers(retryAfter), new byte[0], StandardCharsets.UTF_8);
  }

  private static RestClientResponseException springServer(HttpStatus status, String retryAfter) {
    return HttpServerErrorException.create(status, status.getReasonPhrase(), headers(retryAfter), new byte[0], StandardCharsets.UTF_8);
  }

  private static Request feignRequest() {
    return Request.create(Request.HttpMethod.GET, "http://127.0.0.1/items/1", Map.of(), new byte[0], StandardCharsets.UTF_8, null);
  }

  /** As Feign keeps response headers: a case-insensitive map. */
  private static Map<String, Collection<String>> feignHeaders(String retryAfter) {
    Map<String, Collection<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (retryAfter != null) {
      headers.put("retry-after", List.of(retryAfter));
    }
    return headers;
  }

  private static feign.Response feignResponse(int status, String retryAfter) {
    return feign.Response.builder().status(status).reason("failed").request(feignRequest())
        .headers(feignHeaders(retryAfter)).body(new byte[0]).build();
  }

  private static HttpException retrofit(int status, String retryAfter) {
    okhttp3.Response.Builder raw = new okhttp3.Response.Builder()
        .code(status).message("failed").protocol(Protocol.HTTP_1_1)
        .request(new okhttp3.Request.Builder().url("http://127.0.0.1/items/1").build());
    if (retryAfter != null) {
      raw.header("Retry-After", retryAfter);
    }
    return new HttpException(retrofit2.Response.error(ResponseBody.create("", null), raw.build()));
  }
}
