package dev.brace.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The outcomes that need time to pass: a timeout, a hedge, a remembered answer. */
@BraceTest
class OutcomesTest {

  /** Hands out the futures it is given, in order; a future never completed is an answer that never comes. */
  static final class Scripted implements Slow {
    final Deque<CompletableFuture<String>> answers = new ArrayDeque<>();
    final Deque<IOException> failures = new ArrayDeque<>();

    @Override
    public CompletableFuture<String> bounded(String id) {
      return answers.poll();
    }

    @Override
    public CompletableFuture<String> hedged(String id) {
      return answers.poll();
    }

    @Override
    public String remembered(String id) throws IOException {
      IOException failure = failures.poll();
      if (failure != null) {
        throw failure;
      }
      return "fresh " + id;
    }
  }

  @Test
  void aCallThatNeverAnswersTimesOutWhenItsTimeHasPassed(BraceTestKit brace) {
    Scripted fake = new Scripted();
    fake.answers.add(new CompletableFuture<>());
    CompletableFuture<String> call = brace.wrap(Slow.class, fake).bounded("1");

    brace.advance(Duration.ofMillis(999));
    assertFalse(call.isDone());
    brace.advance(Duration.ofMillis(1));

    ExecutionException failed = assertThrows(ExecutionException.class, call::get);
    assertInstanceOf(TimeoutExceededException.class, failed.getCause());
    brace.call("Slow.bounded").timedOut().failed();
  }

  @Test
  void aHedgeIsSentWhenTheFirstAttemptIsLateAndItsAnswerWins(BraceTestKit brace) throws Exception {
    Scripted fake = new Scripted();
    fake.answers.add(new CompletableFuture<>());
    fake.answers.add(CompletableFuture.completedFuture("from the hedge"));
    CompletableFuture<String> call = brace.wrap(Slow.class, fake).hedged("1");

    brace.advance(Duration.ofMillis(50));

    assertEquals("from the hedge", call.get());
    brace.call("Slow.hedged").hedged(1).thenSucceeded();
  }

  @Test
  void aRememberedAnswerServesAFailedCall(BraceTestKit brace) throws IOException {
    Scripted fake = new Scripted();
    Slow slow = brace.wrap(Slow.class, fake);
    slow.remembered("1");
    fake.failures.add(new IOException("down"));

    brace.advance(Duration.ofMinutes(5));
    assertEquals("fresh 1", slow.remembered("1"));

    brace.call("Slow.remembered").servedStale().thenFailed();   // the outcome is decided before the stale answer serves it
    assertEquals(2, brace.calls("Slow.remembered").size(), brace.timeline());
  }
}
