package dev.brace.it.matrix;

/** Where the settings a scenario needs come from. */
enum Layer {
  /** The annotations of the scenario's annotated interface, or a Stack's own part settings. */
  ANNOTATION("annotation"),
  /** {@code Registry.builder()} over the decoy values. */
  PROGRAMMATIC("programmatic"),
  /** {@code BRACE_*} variables (given to {@code Registry.builder().environment}) over the decoy values. */
  ENVIRONMENT("environment");

  final String title;

  Layer(String title) {
    this.title = title;
  }

  /** @return the interface whose annotations (or whose Stack values) form the lowest layer */
  Class<? extends Shape> type(Scenario scenario) {
    return this == ANNOTATION ? scenario.annotated : scenario.decoy;
  }
}
