package dev.brace.it.matrix;

/** Where the scenario's breakers and limiters keep their state. */
enum BackendChoice {
  LOCAL("local backend"),
  /** {@link InMemoryBackend}, chosen per instance by {@code brace.<kind>.<name>.backend}. */
  MEMORY("in-memory test backend");

  final String title;

  BackendChoice(String title) {
    this.title = title;
  }
}
