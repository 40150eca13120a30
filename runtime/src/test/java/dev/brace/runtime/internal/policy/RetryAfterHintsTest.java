package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.RetryAfterHint;
import dev.brace.runtime.config.ExceptionFilter;
import feign.FeignException;
import feign.Request;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpServerErrorException;

/** Where in a failure the hint is found: the failure, its wrappers, its causes; and where the walk stops. */
class RetryAfterHintsTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-02T10:00:00Z"), ZoneOffset.UTC);
  private final RetryAfterHints hints = new RetryAfterHints(CLOCK);

  @Test
  void aFrameworkExceptionGivesItsHeader() {
    assertEquals(Duration.ofSeconds(1).toNanos(), hints.hintNanos(unavailable("1")));
    assertEquals(Duration.ofSeconds(5).toNanos(), hints.hintNanos(unavailable("Mon, 02 Mar 2026 10:00:05 GMT")),
        "an HTTP date, on the registry's wall clock");
  }

  @Test
  void aRetryAfterHintGivesItsHint() {
    assertEquals(Duration.ofMillis(300).toNanos(),
        hints.hintNanos(new RateLimitedException("full", Duration.ofMillis(300), null)));
  }

  @Test
  void wrappersAndCausesAreLookedThrough() {
    long one = Duration.ofSeconds(1).toNanos();
    assertEquals(one, hints.hintNanos(new CompletionException(unavailable("1"))));
    assertEquals(one, hints.hintNanos(new ExecutionException(unavailable("1"))));
    assertEquals(one, hints.hintNanos(new IllegalStateException("client wrapped it", new CompletionException(unavailable("1")))));
  }

  @Test
  void theFirstHintInTheChainDecides() {
    Hinted outer = new Hinted(Duration.ofSeconds(2), unavailable("9"));
    assertEquals(Duration.ofSeconds(2).toNanos(), hints.hintNanos(outer));
    Hinted empty = new Hinted(null, unavailable("9"));
    assertEquals(Duration.ofSeconds(9).toNanos(), hints.hintNanos(empty), "an empty hint lets the walk go on");
    Hinted negative = new Hinted(Duration.ofSeconds(-1), unavailable("9"));
    assertEquals(Duration.ofSeconds(9).toNanos(), hints.hintNanos(negative), "so does a negative one");
    assertEquals(RetryAfterHints.NONE, hints.hintNanos(new RuntimeException(unavailable("soon"))), "malformed: no hint");
    Throwable malformedAroundAHint = unavailable("soon").initCause(new Hinted(Duration.ofSeconds(3), null));
    assertEquals(Duration.ofSeconds(3).toNanos(), hints.hintNanos(malformedAroundAHint), "a malformed header is passed over");
  }

  @Test
  void aRefusalCountsAsTheFailureButNotAsTheCauseOfAnother() {
    RateLimitedException refusal = new RateLimitedException("full", Duration.ofMillis(300), null);
    assertEquals(Duration.ofMillis(300).toNanos(), hints.hintNanos(new CompletionException(refusal)));
    assertEquals(RetryAfterHints.NONE, hints.hintNanos(new IllegalStateException("a deeper call was refused", refusal)),
        "another call's refusal, inside the delegate");
  }

  @Test
  void aFailureWithoutAHintHasNone() {
    assertEquals(RetryAfterHints.NONE, hints.hintNanos(new IOException("reset")));
    assertEquals(RetryAfterHints.NONE, hints.hintNanos(null));
    assertEquals(RetryAfterHints.NONE, hints.hintNanos(unavailable(null)));
  }

  @Test
  void aDatePastIsZeroAndAHugeValueSaturates() {
    assertEquals(0, hints.hintNanos(unavailable("Mon, 02 Mar 2026 09:00:00 GMT")));
    assertEquals(Long.MAX_VALUE, hints.hintNanos(unavailable("99999999999999999999")));
  }

  @Test
  void theWalkEndsAtACycleAndAfterSixteen() {
    IOException first = new IOException("first");
    IOException second = new IOException("second", first);
    first.initCause(second);
    assertEquals(RetryAfterHints.NONE, hints.hintNanos(first), "a cycle ends the walk");

    Throwable sixteenDeep = unavailable("1");
    for (int i = 0; i < ExceptionFilter.MAX_CAUSE_DEPTH; i++) {
      sixteenDeep = new RuntimeException("level " + i, sixteenDeep);
    }
    assertEquals(Duration.ofSeconds(1).toNanos(), hints.hintNanos(sixteenDeep), "a cause 16 deep is read");
    assertEquals(RetryAfterHints.NONE, hints.hintNanos(new RuntimeException("one more", sixteenDeep)),
        "one 17 deep is not, as for the exception filters");
  }

  @Test
  void feignsRetryableExceptionAroundItsResponseError() {
    Request request = Request.create(Request.HttpMethod.GET, "http://127.0.0.1/items/1", Map.of(), new byte[0],
        StandardCharsets.UTF_8, null);
    FeignException cause = new FeignException.ServiceUnavailable("busy", request, new byte[0],
        Map.of("Retry-After", List.of("3")));
    feign.RetryableException wrapper = new feign.RetryableException(
        503, "busy", Request.HttpMethod.GET, cause, (Long) null, request);
    assertEquals(Duration.ofSeconds(3).toNanos(), hints.hintNanos(wrapper), "no instant on the wrapper: its cause's header");
  }

  private static HttpServerErrorException unavailable(String retryAfter) {
    HttpHeaders headers = new HttpHeaders();
    if (retryAfter != null) {
      headers.add("Retry-After", retryAfter);
    }
    return (HttpServerErrorException) HttpServerErrorException.create(
        HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable", headers, new byte[0], StandardCharsets.UTF_8);
  }

  /** A user's exception with a hint, possibly empty, around a cause. */
  private static final class Hinted extends RuntimeException implements RetryAfterHint {
    private final Duration hint;

    Hinted(Duration hint, Throwable cause) {
      super("hinted", cause);
      this.hint = hint;
    }

    @Override
    public Optional<Duration> retryAfter() {
      return Optional.ofNullable(hint);
    }
  }
}
