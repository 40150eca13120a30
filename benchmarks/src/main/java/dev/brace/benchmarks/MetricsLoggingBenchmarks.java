package dev.brace.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@link MetricsBenchmarks}' happy path again, with an SLF4J provider writing INFO, as a service
 * has one: slf4j-simple at its default level. Brace's per-call events are DEBUG, so nothing is
 * written; what these rows show is whether a call pays for asking. The provider is named per
 * fork ({@code -Dslf4j.provider}), since the jar registers none (every other row runs with
 * logging off), and checked when the trial starts.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(jvmArgsAppend = {Logging.SIMPLE_PROVIDER, Logging.INFO_LEVEL})
@State(Scope.Benchmark)
public class MetricsLoggingBenchmarks {

  @Setup
  public void requireLoggingAtInfo() {
    Logging.requireInfo();
  }

  @Benchmark
  public String braceFourPatterns(MetricsBenchmarks.BraceFourPatterns state) {
    return state.client.call();
  }

  @Benchmark
  public String resilience4jFourPatterns(MetricsBenchmarks.Resilience4jFourPatterns state) {
    return state.call.get();
  }
}
