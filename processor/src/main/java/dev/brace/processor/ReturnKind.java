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
  FLUX
}
