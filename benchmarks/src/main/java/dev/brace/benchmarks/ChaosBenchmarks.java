package dev.brace.benchmarks;

import dev.brace.runtime.Registry;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What fault injection costs a call it does not touch: the four-pattern stack of {@link
 * BraceBenchmarks#fourPatterns} with fault injection switched off, and switched on with an
 * injection configured for another name only. A call with no injection of its own resolves to
 * none, so both rows should read as {@code fourPatterns} does, at 0 B/op.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ChaosBenchmarks {

  @State(Scope.Benchmark)
  public static class ChaosOffState {
    BraceClients.FourPatterns client;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
      client = ResilientBraceClients_FourPatterns.wrap(new Target(), registry);
    }
  }

  @State(Scope.Benchmark)
  public static class ChaosOnElsewhereState {
    BraceClients.FourPatterns client;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder()
          .environment(Map.of("BRACE_CHAOS_ENABLED", "true"))
          .systemProperties(Map.of())
          .chaos("elsewhere", c -> c.faultRate(0.5).latency("1s").latencyRate(0.5))
          .build();
      client = ResilientBraceClients_FourPatterns.wrap(new Target(), registry);
    }
  }

  @Benchmark
  public String fourPatternsChaosOff(ChaosOffState state) {
    return state.client.call();
  }

  @Benchmark
  public String fourPatternsChaosOnElsewhere(ChaosOnElsewhereState state) {
    return state.client.call();
  }
}
