package dev.brace.benchmarks;

import dev.brace.runtime.CircuitBreakerHandle;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What an event costs when nobody is there to see it. A breaker held OPEN refuses every call,
 * and every refusal passes the event boundary ({@code circuit.rejected}); with no listener and
 * logging off (the benchmark jar registers no SLF4J provider, so SLF4J is a no-op; checked when
 * the trial starts) the event must be skipped without allocating.
 *
 * <p>A refusal itself allocates: the {@link CircuitOpenException}, its message, its stack trace and
 * its retry-after {@link Duration}. So read B/op against {@link #refusalOnly}, which builds the
 * same exception and nothing else: {@link #rejectedNoListener} should allocate the same, while
 * {@link #rejectedWithListener} (one no-op listener subscribed) shows what an event does cost
 * once someone listens — the proof that this benchmark would see an allocating emission.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EmissionBenchmarks {

  /** Fails every call, so the first one opens the breaker. */
  static final class FailingTarget implements BraceClients.RejectingBreaker {
    @Override
    public String call() {
      throw new IllegalStateException("down");
    }
  }

  /** A wrapper whose breaker is OPEN for the whole run. */
  public abstract static class Rejecting {
    Registry registry;
    BraceClients.RejectingBreaker client;
    AutoCloseable subscription;

    void open(Registry built) {
      Logging.requireOff();
      registry = built;
      client = ResilientBraceClients_RejectingBreaker.wrap(new FailingTarget(), registry);
      try {
        client.call();
      } catch (IllegalStateException expected) {
        // failureThreshold = 1: this failure opened the circuit.
      }
      CircuitBreakerHandle breaker = registry.circuitBreaker("bench-rejecting");
      if (breaker.state() != CircuitState.OPEN) {
        throw new IllegalStateException("the breaker did not open: " + breaker);
      }
    }

    @TearDown
    public void tearDown() throws Exception {
      if (subscription != null) {
        subscription.close();
      }
    }
  }

  @State(Scope.Benchmark)
  public static class NoListener extends Rejecting {
    @Setup
    public void setUp() {
      open(Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class WithListener extends Rejecting {
    @Setup
    public void setUp() {
      open(Registry.builder().build());
      subscription = registry.subscribe(event -> {});
    }
  }

  /** The refusal the breaker would build, built here with no breaker and no event boundary. */
  @State(Scope.Benchmark)
  public static class Baseline {
    final long probeAt = System.nanoTime() + TimeUnit.HOURS.toNanos(1);
  }

  @Benchmark
  public Object rejectedNoListener(NoListener state) {
    return rejection(state.client);
  }

  @Benchmark
  public Object rejectedWithListener(WithListener state) {
    return rejection(state.client);
  }

  @Benchmark
  public Object refusalOnly(Baseline state) {
    // As DefaultCircuitBreaker.refuse: the time to the probe, then the exception.
    return new CircuitOpenException("bench-rejecting", Duration.ofNanos(state.probeAt - System.nanoTime()));
  }

  private static Object rejection(BraceClients.RejectingBreaker client) {
    try {
      return client.call();
    } catch (CircuitOpenException refused) {
      return refused;
    }
  }
}
