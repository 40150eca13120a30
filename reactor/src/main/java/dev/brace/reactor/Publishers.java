package dev.brace.reactor;

import org.reactivestreams.Publisher;

/** What a delegate or a fallback returned, taken as the publisher a reactive method returns. */
final class Publishers {
  private Publishers() {}

  /**
   * @param returned what the delegate or the fallback returned
   * @param source who returned it, for the message
   * @return {@code returned}, as the publisher it is
   * @throws NullPointerException naming {@code source} when it returned null
   */
  @SuppressWarnings("unchecked")
  static <T> Publisher<T> of(Object returned, String source) {
    if (returned == null) {
      throw new NullPointerException(source + " returned null instead of a Flux");
    }
    return (Publisher<T>) returned;
  }
}
