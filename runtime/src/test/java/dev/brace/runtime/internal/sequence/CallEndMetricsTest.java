package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RecordedMetrics;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** How a call ended, as a bound metrics listener hears it: one report per outcome, with the instance that decided. */
class CallEndMetricsTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();
  private final RecordedMetrics metrics = new RecordedMetrics();

  {
    registry.bindMetrics(metrics);
  }

  @Test
  void aCallAnsweredByItsFallbackIsReportedAsFallenBackWithItsDuration() throws Exception {
    Stack<String> stack = Stack.<String>builder("Api.get").fallback(failure -> "answered").build(registry);

    assertEquals("answered", stack.call(() -> {
      clock.sleep(Duration.ofMillis(7));
      throw new IOException("down");
    }));

    assertEquals(List.of("Api.get fellBack Api.get 7000000"), metrics.starting("Api.get fellBack"));
    assertEquals(List.of(), metrics.starting("Api.get failed"), "not reported as failed as well");
  }

  @Test
  void aCallEndedByItsOwnTimeoutIsReportedAsTimedOutByThatTimeout() throws Exception {
    Stack<String> stack = Stack.<String>builder("Api.slow").timeout(t -> t.duration("2s")).build(registry);

    CompletableFuture<String> result = stack.callAsync(CompletableFuture::new);
    clock.advance(Duration.ofSeconds(2));

    ExecutionException ended = assertThrows(ExecutionException.class, result::get);
    assertInstanceOf(TimeoutExceededException.class, ended.getCause());
    assertEquals(List.of("Api.slow timedOut Api.slow 2000000000"), metrics.starting("Api.slow timedOut"));
    assertEquals(List.of(), metrics.starting("Api.slow failed"), "not reported as failed as well");
  }
}
