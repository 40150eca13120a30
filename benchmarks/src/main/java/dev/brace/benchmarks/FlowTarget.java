package dev.brace.benchmarks;

import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * The {@code Flow} target: returns a cold flow of three strings made before the benchmark starts,
 * which emits them to its collector without suspending. Every library wraps this very method, and
 * each collection of its flow is one call.
 */
public final class FlowTarget implements BraceClients.FlowRetryOnly, BraceClients.FlowFourPatterns {

  /** How many elements one collection receives. */
  static final int ELEMENTS = 3;

  private final Flow<String> elements = FlowKt.flowOf("a", "b", "c");

  // Not inlined, like Target.call().
  @Override
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public Flow<String> call() {
    return elements;
  }
}
