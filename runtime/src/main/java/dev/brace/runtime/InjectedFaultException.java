package dev.brace.runtime;

/**
 * The failure fault injection gives an attempt of a method that declares no {@link
 * java.io.IOException}, when its settings name no exception of their own ({@code
 * BRACE_CHAOS_<NAME>_FAULT}). It stands for the dependency failing: unlike a refusal ({@link
 * Refusal}), retries, breakers, hedges, remembered answers and fallbacks treat it as they treat the
 * dependency's own failures. Its message says it was injected and under which name; the dependency
 * was not called.
 */
public final class InjectedFaultException extends ResilienceException {
  private static final long serialVersionUID = 1L;

  /** @param message says the failure was injected, and under which name */
  public InjectedFaultException(String message) {
    super(message);
  }
}
