package dev.brace.benchmarks;

import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlin.coroutines.intrinsics.IntrinsicsKt;
import kotlinx.coroutines.flow.FlowCollector;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * How a benchmark method calls a {@code suspend} function without a coroutine library in the way:
 * with one reusable continuation whose context is empty (no job, no dispatcher), as the innermost
 * frame of any coroutine passes its own. The targets never suspend, so every call must return its
 * value at once; a call that returned {@code COROUTINE_SUSPENDED} (or resumed the continuation
 * later) would measure something else, and fails the benchmark instead. What a row measures is
 * therefore the library's code around one call of a {@code suspend} function, not a coroutine's
 * launch or a dispatcher.
 */
public final class Suspensions {
  /** Passed to every call; it holds nothing, so all benchmark threads share it. */
  static final Continuation<Object> CALLER = new Continuation<>() {
    @Override
    public CoroutineContext getContext() {
      return EmptyCoroutineContext.INSTANCE;
    }

    @Override
    public void resumeWith(Object result) {
      throw new IllegalStateException("a benchmarked call suspended and resumed later: " + result);
    }
  };

  private Suspensions() {}

  /**
   * @param returned what a {@code suspend} function called with {@link #CALLER} returned
   * @return that value
   * @throws IllegalStateException when the call suspended
   */
  @SuppressWarnings("unchecked")
  static <T> T answered(Object returned) {
    if (returned == IntrinsicsKt.getCOROUTINE_SUSPENDED()) {
      throw new IllegalStateException("a benchmarked call suspended: the row would not measure what it says");
    }
    return (T) returned;
  }

  /**
   * A benchmark thread's collector of a flow: counts the elements, so that the benchmark returns
   * something that depends on them. It allocates nothing per element.
   */
  @State(Scope.Thread)
  public static class Counting implements FlowCollector<String> {
    int elements;

    @Override
    public Object emit(String value, Continuation<? super Unit> continuation) {
      elements++;
      return Unit.INSTANCE;
    }
  }
}
