package dev.brace.benchmarks;

import io.lettuce.core.resource.ClientResources;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Admissions per second through a rate limiter whose state is in Redis: Brace's (one Lua script on
 * the server's clock) against Bucket4j's Lettuce proxy (compare-and-swap with the client's clock).
 * Each trial starts its own {@code redis-server} on a free loopback port and kills it afterwards;
 * every benchmark thread shares the one bucket, so more threads means more contention on it.
 * Run with {@code benchmarks/run --redis} (at 1, 4 and 16 threads); the default run excludes
 * these, as they measure the network path, not the library's overhead.
 *
 * <p>Round trips per admission are counted outside JMH, by {@link RedisRoundTrips}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RedisAdmissionBenchmarks {

  @State(Scope.Benchmark)
  public static class BraceState {
    RedisServerProcess server;
    ClientResources resources;
    RedisDesigns.Brace design;

    @Setup(Level.Trial)
    public void setUp() {
      server = RedisServerProcess.start();
      resources = RedisDesigns.resources(null);
      design = new RedisDesigns.Brace(server.uri(), resources);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      long trouble = design.backendTrouble();
      design.close();
      RedisDesigns.shutdown(resources);
      server.close();
      if (trouble != 0) {
        throw new IllegalStateException(trouble + " backend events: Redis did not always answer; the result is not valid");
      }
    }
  }

  @State(Scope.Benchmark)
  public static class Bucket4jState {
    RedisServerProcess server;
    ClientResources resources;
    RedisDesigns.Bucket4j design;

    @Setup(Level.Trial)
    public void setUp() {
      server = RedisServerProcess.start();
      resources = RedisDesigns.resources(null);
      design = new RedisDesigns.Bucket4j(server.uri(), resources);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      design.close();
      RedisDesigns.shutdown(resources);
      server.close();
    }
  }

  @Benchmark
  public boolean brace(BraceState state) throws Exception {
    return state.design.admit();
  }

  @Benchmark
  public boolean bucket4j(Bucket4jState state) {
    return state.design.admit();
  }
}
