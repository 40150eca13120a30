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
  INVALID_VALUE("@%s on %s: %s = %s is not accepted; expected %s"),
  INVALID_NAME("@%s on %s: name = \"%s\" is not accepted; %s"),
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
  FALLBACK_FAILURE_TYPE(
      "@Fallback(method = \"%s\") on %s: the last parameter of %s is %s, but @Fallback(on)"
          + " includes %s, which is not assignable to it"),
  KEY_MALFORMED("@%s(key = \"%s\") on %s: %s"),
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
  OVERLOAD_CONFLICT(
      "@%s on %s: the overloads of %s share the call name \"%s\" but give it different settings;"
          + " %s"),
  NAME_CONFLICT(
      "@%s on %s: the %s \"%s\" is already configured differently on %s; one name is one shared"
          + " instance, so give both sites the same settings or different names"),
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
