package dev.brace.kotlin;

import dev.brace.runtime.support.ResilientCall;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;

/** brace-kotlin's entry class as Java sees it: the signatures generated code calls. */
public final class CoroutineCalls {
  private CoroutineCalls() {}

  public static <T> Object suspending(ResilientCall call, Object target, Object a, Object b, Object c, Object d,
      long x, long y, Continuation<? super T> continuation) {
    throw new UnsupportedOperationException("stub");
  }

  public static SuspendInvocation attempt(SuspendInvocation invocation) {
    return invocation;
  }

  public static <T> Flow<T> flow(ResilientCall call, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    throw new UnsupportedOperationException("stub");
  }
}
