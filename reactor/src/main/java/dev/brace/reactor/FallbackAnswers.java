package dev.brace.reactor;

import java.util.concurrent.CompletionStage;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * What a call's fallback hands back, which the reactive drivers turn into the answer's publisher.
 * A generated wrapper's fallback lambda answers with a publisher (a {@code Mono} method's value is
 * wrapped in one where the lambda is generated, since only the compiler knows which it is); a
 * {@code Stack}'s fallback function answers as it does for {@code callAsync}, with a completed
 * stage of its value.
 */
enum FallbackAnswers {
  /** A {@code Mono}, a {@code Flux} or another {@code Publisher}. */
  PUBLISHER,
  /** A {@code CompletionStage} of the value: one element, none when it is null. */
  STAGE;

  /**
   * @param answered what the fallback returned
   * @param callName the call it answers, for the message
   * @return the answer's publisher
   * @throws NullPointerException naming the call when a publisher-returning fallback returned null
   */
  @SuppressWarnings("unchecked")
  <T> Publisher<T> answer(Object answered, String callName) {
    if (this == STAGE) {
      return Mono.fromCompletionStage((CompletionStage<T>) answered).flux();
    }
    return Publishers.of(answered, "the fallback of " + callName);
  }
}
