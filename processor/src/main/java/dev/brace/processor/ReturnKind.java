package dev.brace.processor;

/** How the wrapper drives a call, decided by what the method returns. */
enum ReturnKind {
  /** A plain value, or {@code void}: the synchronous driver, on the caller's thread. */
  VALUE,
  /** {@code CompletionStage<T>} or {@code CompletableFuture<T>}: the asynchronous driver. */
  COMPLETION_STAGE,
  /** Reactor's {@code Mono<T>}, with {@code brace-reactor} on the class path: protected lazily, per subscription. */
  MONO,
  /** Reactor's {@code Flux<T>}, with {@code brace-reactor} on the class path: protected lazily, per subscription. */
  FLUX,
  /**
   * A Kotlin {@code suspend} function (a trailing {@code Continuation} parameter, as kapt shows
   * it), with {@code brace-kotlin} on the class path: driven as an asynchronous call, each attempt
   * a call of the delegate's {@code suspend} function.
   */
  SUSPEND,
  /** A Kotlin {@code Flow<T>}, with {@code brace-kotlin} on the class path: protected lazily, per collection. */
  FLOW;

  /** @return whether the method's last parameter is its caller's continuation rather than an argument */
  boolean takesContinuation() {
    return this == SUSPEND;
  }

  /** @return whether the call is a stream: no one result to hedge, remember or test */
  boolean isStream() {
    return this == FLUX || this == FLOW;
  }
}
