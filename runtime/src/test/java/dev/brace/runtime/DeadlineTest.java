package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The public face of deadlines: opening, nesting, reading, and the arguments it refuses. */
class DeadlineTest {
  private final ManualTimeSource clock = new ManualTimeSource();

  @AfterEach
  void nothingLeftOnTheThread() {
    assertEquals(Optional.empty(), Deadline.current(), "a test left a deadline open");
  }

  @Test
  void aDeadlineIsCurrentWhileItsScopeIsOpenAndTellsWhatRemainsOnItsClock() {
    assertFalse(Deadline.current().isPresent());
    try (Deadline.Scope scope = Deadline.open(Duration.ofMillis(300), clock)) {
      Deadline current = Deadline.current().orElseThrow();
      assertSame(scope.deadline(), current);
      assertEquals(Duration.ofMillis(300), current.remaining());
      assertEquals(Duration.ofMillis(300), current.budget());
      assertSame(clock, current.clock());
      clock.advance(Duration.ofMillis(100));
      assertEquals(Duration.ofMillis(200), current.remaining(), "judged on the manual clock");
      assertFalse(current.passed());
      clock.advance(Duration.ofMillis(250));
      assertEquals(Duration.ZERO, current.remaining(), "never negative");
      assertTrue(current.passed());
    }
    assertFalse(Deadline.current().isPresent(), "closing the scope ends it");
  }

  @Test
  void aDeadlineOpenedInsideAnotherOnlyShrinksIt() {
    try (Deadline.Scope outer = Deadline.open(Duration.ofMillis(300), clock)) {
      try (Deadline.Scope later = Deadline.open(Duration.ofSeconds(5), clock)) {
        assertSame(outer.deadline(), later.deadline(), "the caller's budget is not extended");
        assertEquals(Duration.ofMillis(300), Deadline.current().orElseThrow().remaining());
      }
      try (Deadline.Scope sooner = Deadline.open(Duration.ofMillis(50), clock)) {
        assertEquals(Duration.ofMillis(50), Deadline.current().orElseThrow().remaining());
      }
      assertSame(outer.deadline(), Deadline.current().orElseThrow(), "the outer one is back");
    }
  }

  @Test
  void deadlinesOnDifferentClocksAreComparedByWhatRemains() {
    ManualTimeSource other = new ManualTimeSource();
    other.advance(Duration.ofHours(5));
    try (Deadline.Scope outer = Deadline.open(Duration.ofMillis(300), clock);
        Deadline.Scope inner = Deadline.open(Duration.ofMillis(100), other)) {
      assertSame(other, inner.deadline().clock(), "100 ms left on the other clock is the earlier");
    }
  }

  @Test
  void withinRunsTheWorkUnderTheDeadlineAndReturnsOrThrowsWhatItDid() throws Exception {
    assertEquals("300ms", Deadline.within(Duration.ofMillis(300),
        () -> Durations.describe(Deadline.current().orElseThrow().budget())));
    IOException failure = new IOException("down");
    assertSame(failure, assertThrows(IOException.class, () -> Deadline.within(Duration.ofSeconds(1), () -> {
      throw failure;
    })));
  }

  @Test
  void withinAsyncCarriesTheDeadlineIntoTheWorkAndReturnsItsStage() throws Exception {
    CompletableFuture<String> started = Deadline.withinAsync(Duration.ofSeconds(2),
        () -> CompletableFuture.completedFuture(Durations.describe(Deadline.current().orElseThrow().budget())));
    assertEquals("2s", started.get());
    IllegalStateException thrown = new IllegalStateException("no");
    CompletableFuture<String> failed = Deadline.withinAsync(Duration.ofSeconds(2), () -> {
      throw thrown;
    });
    assertSame(thrown, assertThrows(ExecutionException.class, failed::get).getCause(), "a throw fails the future");
  }

  @Test
  void aBudgetThatIsZeroNegativeOrMissingIsRefusedNamingIt() {
    for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1)}) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Deadline.open(bad));
      assertTrue(refused.getMessage().contains("budget = " + bad), refused.getMessage());
      assertThrows(IllegalArgumentException.class, () -> Deadline.within(bad, () -> "never"));
      assertThrows(IllegalArgumentException.class, () -> Deadline.withinAsync(bad, () -> CompletableFuture.completedFuture("never")));
      assertThrows(IllegalArgumentException.class, () -> Deadline.after(bad, clock));
    }
    assertEquals("budget", assertThrows(NullPointerException.class, () -> Deadline.open(null)).getMessage());
    assertEquals("clock", assertThrows(NullPointerException.class, () -> Deadline.open(Duration.ofSeconds(1), null)).getMessage());
    assertEquals("work", assertThrows(NullPointerException.class, () -> Deadline.within(Duration.ofSeconds(1), null)).getMessage());
    assertEquals("work", assertThrows(NullPointerException.class,
        () -> Deadline.withinAsync(Duration.ofSeconds(1), null)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> Deadline.at(0, Duration.ofMillis(-1), clock));
  }

  @Test
  void scopesCloseInOrderOnTheThreadThatOpenedThem() throws Exception {
    Deadline.Scope outer = Deadline.open(Duration.ofSeconds(1), clock);
    Deadline.Scope inner = Deadline.open(Duration.ofMillis(10), clock);
    assertThrows(IllegalStateException.class, outer::close, "the inner one is still open");
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      other.submit(() -> {
        try {
          inner.close();
        } catch (Throwable failure) {
          thrown.set(failure);
        }
      }).get();
      assertTrue(thrown.get() instanceof IllegalStateException, "closed on another thread: " + thrown.get());
    } finally {
      other.shutdownNow();
    }
    inner.close();
    inner.close();
    outer.close();
  }

  @Test
  void aDeadlineExceededExceptionIsATimeoutNamingTheCallTheBudgetAndTheOverrun() {
    Deadline deadline = Deadline.at(clock.nanoTime(), Duration.ofMillis(300), clock);
    DeadlineExceededException exceeded = new DeadlineExceededException("Quotes.quote", deadline, Duration.ofMillis(2));
    assertTrue(exceeded instanceof TimeoutExceededException);
    assertEquals("Quotes.quote", exceeded.instance());
    assertEquals(Duration.ofMillis(300), exceeded.timeout());
    assertEquals("'Quotes.quote' ran out of its deadline of 300ms, passed 2ms ago", exceeded.getMessage());
    assertSame(deadline, exceeded.deadline());
  }
}
