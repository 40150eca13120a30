package dev.brace.it.matrix;

import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The one call shape every scenario interface redeclares with its own annotations, so a single
 * scripted delegate and a single form driver serve them all. {@code key} feeds key templates;
 * scenarios without a keyed instance ignore it. The reactive methods answer with one element, so
 * that a scenario's assertions hold for them as written; a scenario whose patterns a {@code Flux}
 * cannot take leaves {@link #callFlux} unannotated (passed straight through) and says why.
 */
interface Shape {
  String call(String key, String input) throws Exception;

  CompletableFuture<String> callAsync(String key, String input);

  Mono<String> callMono(String key, String input);

  Flux<String> callFlux(String key, String input);
}
