package dev.brace.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** The floor every other result is read against: the target called with nothing around it. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class DirectBenchmarks {
  private final Target target = new Target();
  private final AsyncTarget asyncTarget = new AsyncTarget();

  @Benchmark
  public String direct() {
    return target.call();
  }

  /** The asynchronous floor: the target's future, already complete, joined. */
  @Benchmark
  public String directAsync() {
    return asyncTarget.call().join();
  }
}
