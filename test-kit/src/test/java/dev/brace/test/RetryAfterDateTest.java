package dev.brace.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.Retry;
import dev.brace.runtime.Stack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpServerErrorException;

/** A Retry-After that gives an HTTP date, written from the kit's wall clock, is waited as it says. */
@BraceTest
class RetryAfterDateTest {

  @Test
  void aDateTwoSecondsAheadOfTheTestsWallClockWaitsTwoSeconds(BraceTestKit brace) throws Exception {
    brace.advance(Duration.ofMinutes(3));   // the wall clock moves with the test's time
    Stack<String> quotes = Stack.<String>builder("Quotes.byDate")
        .retry(retry -> retry.maxAttempts(2).delay("10ms").jitter(Retry.Jitter.NONE))
        .build(brace.registry());
    HttpHeaders headers = new HttpHeaders();
    headers.set(HttpHeaders.RETRY_AFTER,
        DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(brace.time().wallClock()).plusSeconds(2)));
    AtomicInteger attempts = new AtomicInteger();

    String quote = quotes.call(() -> {
      if (attempts.incrementAndGet() == 1) {
        throw HttpServerErrorException.create(HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable", headers, new byte[0],
            StandardCharsets.UTF_8);
      }
      return "ACME 42.00";
    });

    assertEquals("ACME 42.00", quote);
    brace.call("Quotes.byDate").retried(1).waited(Duration.ofMillis(2101)).thenSucceeded();   // 2 s, 5 % and 1 ms of margin
  }
}
