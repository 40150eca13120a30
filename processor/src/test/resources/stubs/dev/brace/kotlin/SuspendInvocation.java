package dev.brace.kotlin;

import kotlin.coroutines.Continuation;

public interface SuspendInvocation {
  Object invoke(Continuation<Object> continuation);
}
