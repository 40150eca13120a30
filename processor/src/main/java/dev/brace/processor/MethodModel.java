package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;

/**
 * One abstract method of the interface, validated.
 *
 * @param method the method, possibly inherited
 * @param callName {@code Interface.method}
 * @param returnKind how the wrapper drives the call, by what it returns; {@code VALUE} for a
 *     method passed straight through
 * @param patterns the patterns it uses, outermost first; empty for a method passed straight through
 * @param fallback the fallback method, with {@code @Fallback}
 * @param breakerKey the circuit breaker's key, when keyed
 * @param limiterKey the rate limiter's key, when keyed
 * @param criticality the {@code Criticality.Level} constant written on the method or its interface, if any
 * @param staleKey the key {@code @StaleIfError} remembers results under, when its template is
 *     set (with none, the key is every argument)
 * @param notIdempotent whether the call is marked {@code @NotIdempotent}, which the registry
 *     enforces against configuration too
 */
record MethodModel(
    ExecutableElement method,
    String callName,
    ReturnKind returnKind,
    List<PatternModel> patterns,
    Optional<FallbackModel> fallback,
    Optional<KeyExpression> breakerKey,
    Optional<KeyExpression> limiterKey,
    Optional<String> criticality,
    Optional<KeyExpression> staleKey,
    boolean notIdempotent) {

  /**
   * @return whether it returns a {@code CompletionStage} or {@code CompletableFuture}, so the
   *     asynchronous driver runs it
   */
  boolean isAsync() {
    return returnKind == ReturnKind.COMPLETION_STAGE;
  }

  /**
   * @return whether the generated method calls its delegate itself when the runtime admits the
   *     attempt at once: a synchronous result (a value, a primitive or none), unless what the
   *     method declares makes every attempt go the staged way (a timeout, a hedge, remembered
   *     results, a key, a result predicate), where that code would never run. The runtime decides
   *     either way; this only keeps the generated code small.
   */
  boolean callsDelegateItself() {
    return returnKind == ReturnKind.VALUE
        && pattern(Kind.TIMEOUT).isEmpty()
        && pattern(Kind.HEDGE).isEmpty()
        && !remembersResults()
        && breakerKey.isEmpty()
        && limiterKey.isEmpty()
        && !testsResults(Kind.RETRY)
        && !testsResults(Kind.CIRCUITBREAKER);
  }

  /** @return whether the call goes through a guard */
  boolean isGuarded() {
    return !patterns.isEmpty();
  }

  /** @return the pattern of a kind, if the method uses it */
  Optional<PatternModel> pattern(Kind kind) {
    return patterns.stream().filter(pattern -> pattern.kind() == kind).findFirst();
  }

  /** @return whether the method remembers its results ({@code @StaleIfError}) */
  boolean remembersResults() {
    return pattern(Kind.STALEIFERROR).isPresent();
  }

  /** @return whether the pattern of a kind tests results */
  boolean testsResults(Kind kind) {
    return pattern(kind).flatMap(PatternModel::resultPredicate).isPresent();
  }
}
