package dev.brace.it.matrix;

import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The one call shape every scenario interface redeclares with its own annotations, so a single
 * scripted delegate and a single form driver serve them all. {@code key} feeds key templates;
 * scenarios without a keyed instance ignore it. The reactive and Flow methods answer with one
 * element, so that a scenario's assertions hold for them as written; a scenario whose patterns a
 * stream cannot take leaves {@link #callFlux} and {@link #callFlow} unannotated (passed straight
 * through) and says why. {@link #callSuspend} is how a Kotlin {@code @Throws(Exception::class)
 * suspend fun callSuspend(key: String, input: String): String} looks from Java, and is wrapped as
 * one; it declares {@code Exception} as {@link #call} does, so that the scripted delegate, a
 * {@code java.lang.reflect.Proxy}, throws a checked failure as itself rather than wrapped.
 */
interface Shape {
  String call(String key, String input) throws Exception;

  CompletableFuture<String> callAsync(String key, String input);

  Mono<String> callMono(String key, String input);

  Flux<String> callFlux(String key, String input);

  Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

  Flow<String> callFlow(String key, String input);
}
