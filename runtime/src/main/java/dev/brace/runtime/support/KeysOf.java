package dev.brace.runtime.support;

/**
 * Computes a call's keys from its arguments: one per generated method with a keyed pattern or
 * {@code @StaleIfError}, a lambda that captures nothing, run inside the call (never when Brace is
 * switched off).
 */
@FunctionalInterface
public interface KeysOf {
  /**
   * @param args the call's arguments
   * @return the keys
   * @throws IllegalArgumentException when a key part is null ({@link CallKeys#part})
   */
  CallKeys keys(Arguments args);
}
