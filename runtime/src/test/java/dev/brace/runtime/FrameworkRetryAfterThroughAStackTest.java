package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;

/**
 * A framework's own exception with {@code Retry-After}, through a whole call: the retry waits what
 * the header says (with its small margin), capped by {@code maxRetryAfter}; an adaptive limiter
 * halves its rate and admits nothing until then. The HTTP date is read on the registry's {@code
 * wallClock}, the waits run on its manual time.
 */
class FrameworkRetryAfterThroughAStackTest {
  private static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");

  private final ManualTimeSource time = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(time).wallClock(Clock.fixed(NOW, ZoneOffset.UTC))
      .environment(Map.of()).systemProperties(Map.of()).build();

  @Test
  void theRetryWaitsTheHeadersSecondsThenItsDate() throws Exception {
    Stack<String> stack = Stack.<String>builder("Items.item")
        .retry(r -> r.maxAttempts(3).delay("10ms").maxRetryAfter("10s").on(HttpClientErrorException.class))
        .build(registry);
    List<Long> attemptsAt = new ArrayList<>();
    AtomicInteger calls = new AtomicInteger();

    String answer = stack.call(() -> {
      attemptsAt.add(time.nanoTime());
      switch (calls.incrementAndGet()) {
        case 1:
          throw tooManyRequests("2");
        case 2:
          throw tooManyRequests("Mon, 02 Mar 2026 10:00:04 GMT");
        default:
          return "item-1";
      }
    });

    assertEquals("item-1", answer);
    assertEquals(2_101, millisBetween(attemptsAt, 0, 1), "2 s, 5 % and 1 ms more");
    assertEquals(4_201, millisBetween(attemptsAt, 1, 2), "4 s after the fixed wall clock's now, the same margin");
  }

  @Test
  void aHintBeyondMaxRetryAfterWaitsOnlyThatAndAMalformedOneOnlyTheBackoff() {
    Stack<String> stack = Stack.<String>builder("Items.capped")
        .retry(r -> r.maxAttempts(3).delay("10ms").multiplier(1.0).jitter(dev.brace.Retry.Jitter.NONE)
            .maxRetryAfter("1500ms").on(HttpClientErrorException.class))
        .build(registry);
    List<Long> attemptsAt = new ArrayList<>();

    assertThrows(HttpClientErrorException.class, () -> stack.call(() -> {
      attemptsAt.add(time.nanoTime());
      throw tooManyRequests(attemptsAt.size() == 1 ? "86400" : "after lunch");
    }));

    assertEquals(1_500, millisBetween(attemptsAt, 0, 1), "capped by maxRetryAfter");
    assertEquals(10, millisBetween(attemptsAt, 1, 2), "ignored: the backoff alone");
  }

  @Test
  void anAdaptiveLimiterBacksOffUntilTheHeadersTime() throws Exception {
    Stack<String> stack = Stack.<String>builder("Items.limited")
        .retry(r -> r.maxAttempts(1).maxRetryAfter("10s"))
        .rateLimit("items-quota", l -> l.permits(100).per("1s").adaptive(true))
        .build(registry);

    assertThrows(HttpClientErrorException.class, () -> stack.call(() -> {
      throw tooManyRequests("Mon, 02 Mar 2026 10:00:03 GMT");
    }));

    RateLimiterHandle limiter = registry.rateLimiter("items-quota");
    assertEquals(50.0, limiter.currentRate(), "halved");
    RateLimitedException refused = assertThrows(RateLimitedException.class, () -> stack.call(() -> "never sent"));
    assertEquals(Duration.ofSeconds(3), refused.retryAfter().orElseThrow(), "nothing admitted until the header's date");
    time.advance(Duration.ofSeconds(3));
    assertEquals("sent", stack.call(() -> "sent"));
  }

  private static long millisBetween(List<Long> at, int from, int to) {
    assertTrue(at.size() > to, "attempts: " + at.size());
    return Duration.ofNanos(at.get(to) - at.get(from)).toMillis();
  }

  private static HttpClientErrorException tooManyRequests(String retryAfter) {
    HttpHeaders headers = new HttpHeaders();
    headers.add("Retry-After", retryAfter);
    return HttpClientErrorException.create(HttpStatus.TOO_MANY_REQUESTS, "Too Many Requests", headers, new byte[0],
        StandardCharsets.UTF_8);
  }
}
