package dev.brace.runtime.support;

/**
 * Computes a call's keys from its arguments: one per generated wrapper whose methods have a keyed
 * pattern or {@code @StaleIfError}, switching on the method's number; run inside the call (never
 * when Brace is switched off).
 */
@FunctionalInterface
public interface KeysOf {
  /**
   * @param method the method's number in its wrapper
   * @param args the call's arguments
   * @return the keys
   * @throws IllegalArgumentException when a key part is null ({@link CallKeys#part})
   */
  CallKeys keys(int method, Arguments args);
}
