package dev.brace.spring;

import dev.brace.Timeout;

/** A second annotated interface, for a bean that implements two. */
public interface Pricing {
  @Timeout("1s")
  long price(String id);
}
