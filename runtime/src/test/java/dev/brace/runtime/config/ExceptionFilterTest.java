package dev.brace.runtime.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.RateLimitedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * How every filter reads a failure: through its causes, at most {@value ExceptionFilter#MAX_CAUSE_DEPTH}
 * deep, to the end of a chain that loops, with {@code ignore} winning wherever it matches, and
 * Brace's refusals judged as themselves only.
 */
class ExceptionFilterTest {

  /** What a client framework throws around an I/O failure, as Spring's ResourceAccessException does. */
  static final class FrameworkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FrameworkException(String message, Throwable cause) {
      super(message, cause);
    }

    /** Its cause left to {@link #initCause}. */
    FrameworkException(String message) {
      super(message);
    }
  }

  private static ExceptionFilter filter(List<Class<? extends Throwable>> on, List<Class<? extends Throwable>> ignore) {
    return new ExceptionFilter(on, ignore);
  }

  /** {@code depth} framework exceptions, the innermost caused by {@code root}. */
  private static Throwable wrapped(int depth, Throwable root) {
    Throwable current = root;
    for (int i = depth; i > 0; i--) {
      current = new FrameworkException("layer " + i, current);
    }
    return current;
  }

  @Test
  void aFailureMatchesByItselfOrByOneOfItsCauses() {
    ExceptionFilter onIo = filter(List.of(IOException.class), List.of());
    IOException io = new SocketTimeoutException("read timed out");
    FrameworkException thrown = new FrameworkException("I/O error", io);

    assertSame(io, onIo.matched(io));
    assertSame(io, onIo.matched(thrown), "the cause that matched");
    assertSame(io, onIo.matched(new CompletionException(new ExecutionException(thrown))),
        "async wrappers first, then the causes");
    assertFalse(onIo.matches(new FrameworkException("no cause", null)));
    assertFalse(onIo.matches(new IllegalStateException("unrelated", new IllegalArgumentException())));
  }

  @Test
  void theFailureItselfIsTheMatchWhenItIsOfAListedType() {
    ExceptionFilter onRuntime = filter(List.of(RuntimeException.class, IOException.class), List.of());
    FrameworkException thrown = new FrameworkException("I/O error", new IOException("reset"));
    assertSame(thrown, onRuntime.matched(thrown), "the outermost exception that matches, not a deeper one");
  }

  @Test
  void anIgnoredTypeAnywhereInTheChainKeepsTheFailureFromMatchingWhateverOnSays() {
    ExceptionFilter filter = filter(List.of(Exception.class), List.of(SocketTimeoutException.class));
    assertFalse(filter.matches(wrapped(3, new SocketTimeoutException("read timed out"))), "ignored as a cause");
    assertFalse(filter.matches(new SocketTimeoutException("read timed out")), "ignored itself");
    assertTrue(filter.matches(wrapped(3, new ConnectException("refused"))));

    ExceptionFilter ignoringTheWrapper = filter(List.of(IOException.class), List.of(UncheckedIOException.class));
    assertFalse(ignoringTheWrapper.matches(new UncheckedIOException(new IOException("reset"))),
        "the failure is ignored although its cause is in on");
  }

  @Test
  void theWalkLooksSixteenCausesDeepAndNoFurther() {
    ExceptionFilter onIo = filter(List.of(IOException.class), List.of());
    IOException atSixteen = new IOException("16 causes down");
    assertSame(atSixteen, onIo.matched(wrapped(ExceptionFilter.MAX_CAUSE_DEPTH, atSixteen)));
    assertNull(onIo.matched(wrapped(ExceptionFilter.MAX_CAUSE_DEPTH + 1, new IOException("17 causes down"))));

    ExceptionFilter ignoringIo = filter(List.of(RuntimeException.class), List.of(IOException.class));
    assertFalse(ignoringIo.matches(wrapped(ExceptionFilter.MAX_CAUSE_DEPTH, new IOException("16 down"))));
    assertTrue(ignoringIo.matches(wrapped(ExceptionFilter.MAX_CAUSE_DEPTH + 1, new IOException("17 down"))),
        "an ignored type below the depth is not seen either");
  }

  @Test
  void aChainThatLoopsEndsTheWalk() {
    FrameworkException outer = new FrameworkException("outer");
    FrameworkException inner = new FrameworkException("inner", outer);
    outer.initCause(inner);

    assertFalse(filter(List.of(IOException.class), List.of()).matches(outer), "ends, without a match");
    assertTrue(filter(List.of(IOException.class, FrameworkException.class), List.of()).matches(outer));

    LoopingException looping = new LoopingException(new IOException("behind the loop"));
    assertTrue(filter(List.of(IOException.class), List.of()).matches(new FrameworkException("top", looping)),
        "an exception seen again ends the walk after what was found on the way");
    assertFalse(filter(List.of(SocketTimeoutException.class), List.of(UncheckedIOException.class)).matches(looping),
        "walked to the end of the loop for an ignored type, and ended");
  }

  /**
   * A cause chain that comes back to itself past the first step, the way a hand-written {@code
   * getCause} can: looping, then IOException, then looping again.
   */
  static final class LoopingException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final IOException next;

    LoopingException(IOException next) {
      super("loops");
      this.next = next;
      next.initCause(this);
    }

    @Override
    public synchronized Throwable getCause() {
      return next;
    }
  }

  @Test
  void aRefusalIsJudgedAsItselfNeverThroughItsCause() {
    RateLimitedException interrupted =
        new RateLimitedException("payments", Duration.ZERO, new InterruptedException("while waiting"));
    assertFalse(filter(List.of(InterruptedException.class), List.of()).matches(interrupted));
    assertTrue(filter(List.of(Exception.class), List.of(InterruptedException.class)).matches(interrupted),
        "its cause is not ignored either");
    assertSame(interrupted, filter(List.of(RateLimitedException.class), List.of()).matched(new CompletionException(interrupted)));
  }

  @Test
  void aRefusalAsTheCauseOfAnotherExceptionIsNotMatched() {
    CircuitOpenException anotherCalls = new CircuitOpenException("inventory", Duration.ofSeconds(1));
    FrameworkException thrown = new FrameworkException("the delegate failed", anotherCalls);

    assertFalse(filter(List.of(CircuitOpenException.class), List.of()).matches(thrown));
    assertFalse(filter(List.of(CircuitOpenException.class), List.of()).callsForAnotherAttempt(thrown));
    assertTrue(filter(List.of(RuntimeException.class), List.of(CircuitOpenException.class)).matches(thrown),
        "nor ignored: the failure is judged by what else it is");
  }

  @Test
  void anotherAttemptAnswersARefusalOnlyWhenItsExactClassIsNamed() {
    BulkheadFullException full = new BulkheadFullException("search", 4, null);
    assertFalse(filter(List.of(Exception.class), List.of()).callsForAnotherAttempt(full));
    assertTrue(filter(List.of(BulkheadFullException.class), List.of()).callsForAnotherAttempt(full));
    assertTrue(filter(List.of(Exception.class), List.of()).matches(full), "a fallback or a breaker still sees it");
  }

  @Test
  void anotherAttemptNeverAnswersAnErrorButACauseThatIsOneDoesNotStopIt() {
    ExceptionFilter onThrowable = filter(List.of(Throwable.class), List.of());
    assertFalse(onThrowable.callsForAnotherAttempt(new CompletionException(new AssertionError("bug"))));
    ExceptionFilter onIo = filter(List.of(IOException.class), List.of());
    assertTrue(onIo.callsForAnotherAttempt(new FrameworkException("I/O error", new IOException("reset", new AssertionError()))));
  }
}
