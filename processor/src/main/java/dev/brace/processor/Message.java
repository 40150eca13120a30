package dev.brace.processor;

import java.util.Locale;

/**
 * Every text the processor prints, in one place. Each starts with a tag such as {@code
 * [brace:fallback-missing]} so a user can search for it.
 */
enum Message {
  NOT_AN_INTERFACE(
      "@%s belongs on an interface or on an abstract method of one, not on %s %s"),
  NOT_ABSTRACT(
      "@%s on %s: only abstract interface methods are wrapped; default, static and private methods"
          + " are called as written"),
  INACCESSIBLE_INTERFACE(
      "%s is private or local; Brace generates a top-level wrapper in its package, which must be"
          + " able to implement it"),
  ASYNC_UNSUPPORTED(
      "%s returns %s; an asynchronous call must return CompletionStage<T> or CompletableFuture<T>"
          + " with a type argument that is not a wildcard"),
  DEFERRED_RETURN_TYPE(
      "%s returns %s%s, which Brace cannot observe: the wrapper would see only the method hand it out,"
          + " and the request would run later, outside the wrapper and every pattern on it; return"
          + " CompletableFuture<T> instead, or Mono<T> or Flux<T> with %s on the class path"),
  REACTOR_MISSING(
      "%s returns %s, which Brace protects only with %s: add it beside brace-runtime, at the same"
          + " version, or return CompletableFuture<T>"),
  KOTLIN_MISSING(
      "%s %s, which Brace protects only with %s on the class path: without it the wrapper would see"
          + " the call hand back %s, and the work would run later, outside every pattern"),
  FLUX_PATTERN_UNSUPPORTED(
      "@%s on %s: a method returning Flux cannot have it, since %s; remove it, or return Mono<List<T>>"
          + " to treat the whole stream as one answer"),
  FLOW_PATTERN_UNSUPPORTED(
      "@%s on %s: a method returning Flow cannot have it, since %s; remove it, or make it a suspend"
          + " function returning List<T> to treat the whole stream as one answer"),
  FALLBACK_SUSPEND_FOR_FLOW(
      "@Fallback(method = \"%s\") on %s: %s is a suspend function, but a Flow is answered by another"
          + " flow, collected in its place; make the fallback a plain function returning %s"),
  INVALID_VALUE("@%s on %s: %s = %s is not accepted; expected %s"),
  INVALID_NAME("@%s on %s: %s"),
  FALLBACK_MISSING(
      "@Fallback(method = \"%s\") on %s: %s has no method named %s; its default and static"
          + " methods are: %s"),
  FALLBACK_AMBIGUOUS(
      "@Fallback(method = \"%s\") on %s: more than one method fits: %s; rename one of them"),
  FALLBACK_PARAMETERS(
      "@Fallback(method = \"%s\") on %s: no %s takes the parameters (%s), optionally followed by"
          + " a Throwable; candidates: %s"),
  FALLBACK_NOT_DEFAULT(
      "@Fallback(method = \"%s\") on %s: %s is neither default nor static; the wrapper can only"
          + " call a default or static method of the interface"),
  FALLBACK_RETURN_TYPE(
      "@Fallback(method = \"%s\") on %s: %s returns %s, which is not %s or a subtype of it"),
  FALLBACK_ANNOTATED(
      "@Fallback(method = \"%s\") on %s: %s carries @%s, but a fallback method is called as written,"
          + " outside every pattern; drop the annotation, or give the fallback's work a method of its own in"
          + " an interface Brace wraps"),
  FALLBACK_FAILURE_TYPE(
      "@Fallback(method = \"%s\") on %s: the last parameter of %s is %s, but @Fallback(on)"
          + " includes %s, which is not assignable to it"),
  KEY_MALFORMED("@%s(key = \"%s\") on %s: %s"),
  KEY_CONSTANT("@%s(key = \"%s\") on %s: %s, so every call would have the same key; %s"),
  KEY_UNKNOWN_PARAMETER(
      "@%s(key = \"%s\") on %s: {%s} names no parameter; the parameters are: %s"),
  KEY_UNKNOWN_PROPERTY(
      "@%s(key = \"%s\") on %s: in {%s}, %s has no accessible method %s() or %s()"),
  ON_RESULT_VOID(
      "@%s(onResult = %s) on %s: the method returns void, so there is no result to test"),
  ON_RESULT_TYPE(
      "@%s(onResult = %s) on %s: the predicate tests %s, which does not accept %s, the method's"
          + " result"),
  ON_RESULT_CONSTRUCTOR(
      "@%s(onResult = %s) on %s: the wrapper creates the predicate with new %s(), so it must be an"
          + " accessible, non-abstract, static class with an accessible no-argument constructor"),
  MAX_DURATION_BELOW_TIMEOUT(
      "@Retry(maxDuration = \"%s\") on %s is shorter than its @Timeout(\"%s\"): one attempt may use up"
          + " the whole limit, and the retry would never retry; lengthen maxDuration or shorten the timeout"),
  MAX_DURATION_BELOW_WAIT(
      "@Retry(maxDuration = \"%s\") on %s is shorter than its @%s(maxWait = \"%s\"): one attempt may wait"
          + " longer than the whole retry may take; lengthen maxDuration or shorten maxWait"),
  OVERLOAD_CONFLICT(
      "@%s on %s: the overloads of %s share the call name \"%s\" but give it different settings;"
          + " %s"),
  NAME_CONFLICT(
      "@%s on %s: the %s \"%s\" is already configured differently on %s; one name is one shared"
          + " instance, so give both sites the same settings or different names"),
  NOT_IDEMPOTENT_RETRY(
      "@Retry on %s: the call is @NotIdempotent, so it may be retried only on failures that prove the"
          + " request was never sent (%s, or a subtype of one), never on a result; but %s"),
  NOT_IDEMPOTENT_HEDGE(
      "@%s on %s: the call is @NotIdempotent, and a hedge sends it again while the first request may"
          + " still be acting on it; remove the hedge, or @NotIdempotent if the dependency can take the call twice"),
  STALE_VOID(
      "@StaleIfError on %s: the method returns void, so there is no result to remember; remove"
          + " it, or return the value"),
  UNRESOLVED_TYPE(
      "%s refers to a type that does not exist (%s); Brace generates no wrapper for it"),
  INTERNAL_ERROR("Brace failed on %s: %s; this is a bug in the processor, please report it");

  private final String format;

  Message(String format) {
    this.format = format;
  }

  /** @return the tag users search for, e.g. {@code [brace:fallback-missing]} */
  String tag() {
    return "[brace:" + name().toLowerCase(Locale.ROOT).replace('_', '-') + "]";
  }

  /**
   * @param arguments the values of the message's placeholders
   * @return the tagged text
   */
  String format(Object... arguments) {
    return tag() + " " + String.format(Locale.ROOT, format, arguments);
  }
}
