package dev.brace.reactor;

import dev.brace.runtime.support.ResilientCall;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** brace-reactor's entry class as generated code calls it: its signatures, no behaviour. */
public final class ReactorCalls {
  private ReactorCalls() {}

  public static <T> Mono<T> mono(ResilientCall call, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    throw new UnsupportedOperationException();
  }

  public static <T> Flux<T> flux(ResilientCall call, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    throw new UnsupportedOperationException();
  }

  public static <T> Mono<T> answer(T value) {
    throw new UnsupportedOperationException();
  }
}
