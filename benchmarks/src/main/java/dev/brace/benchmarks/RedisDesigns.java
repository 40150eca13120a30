package dev.brace.benchmarks;

import dev.brace.redis.RedisBackend;
import dev.brace.redis.RedisBackendOptions;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The two designs under comparison, each on its own Lettuce client and one connection to the same
 * kind of server, each with a bucket so large that it always admits (a refusal would measure
 * something else):
 *
 * <ul>
 *   <li>{@link Brace}: a {@link Stack} with one rate limiter, {@code bench}, which the registry's
 *       environment ({@code BRACE_RATELIMIT_BENCH_BACKEND=redis}) puts on a {@link RedisBackend}:
 *       one Lua script per admission, on the server's clock ({@code TIME});
 *   <li>{@link Bucket4j}: Bucket4j's Lettuce proxy manager (compare-and-swap): it reads the bucket
 *       ({@code GET}), computes the new state with the client's clock, and writes it back with a
 *       script that swaps only if the value is still what it read ({@code EVAL}); on a lost race
 *       it reads and tries again.
 * </ul>
 */
final class RedisDesigns {
  /** 10⁹ permits a second (with as many in the bucket): never refuses at any rate reached here. */
  static final int HUGE = 1_000_000_000;

  private static final Callable<String> TARGET = () -> "ok";

  private RedisDesigns() {}

  /** One way to ask Redis for an admission. */
  interface Admission extends AutoCloseable {
    /** @return whether it admitted (always, with these buckets) */
    boolean admit() throws Exception;

    @Override
    void close();
  }

  /** Brace's Redis rate limiter behind a {@link Stack} built on a registry. */
  static final class Brace implements Admission {
    private final RedisClient client;
    private final RedisBackend backend;
    private final Stack<String> stack;
    private final LongAdder backendTrouble = new LongAdder();

    Brace(String uri, ClientResources resources) {
      client = RedisClient.create(resources, uri);
      // A patient timeout and REFUSE: if Redis ever failed to answer, the benchmark would see a
      // RateLimitedException rather than silently measuring the local fallback.
      backend = RedisBackend.create(client, RedisBackendOptions.defaults()
          .withCommandTimeout(Duration.ofSeconds(5))
          .withWhenUnavailable(RedisBackendOptions.WhenUnavailable.REFUSE));
      Registry registry = Registry.builder()
          .backend("redis", backend)
          .environment(Map.of("BRACE_RATELIMIT_BENCH_BACKEND", "redis"))
          .build();
      registry.subscribe(event -> {
        if (event.kind().startsWith("backend.")) {
          backendTrouble.increment();
        }
      });
      stack = Stack.<String>builder("RedisAdmission.call")
          .rateLimit("bench", l -> l.permits(HUGE).per("1s"))
          .build(registry);
    }

    @Override
    public boolean admit() throws Exception {
      return stack.call(TARGET) != null;
    }

    /** @return backend.unavailable / backend.recovered events seen; anything but 0 spoils the run */
    long backendTrouble() {
      return backendTrouble.sum();
    }

    @Override
    public void close() {
      backend.close();
      client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }
  }

  /** Bucket4j 8's Lettuce compare-and-swap proxy manager, one bucket. */
  static final class Bucket4j implements Admission {
    private final RedisClient client;
    private final StatefulRedisConnection<String, byte[]> connection;
    private final BucketProxy bucket;

    Bucket4j(String uri, ClientResources resources) {
      client = RedisClient.create(resources, uri);
      connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
      // Keys with a time to live, as Brace's, so both write an expiry with every update.
      LettuceBasedProxyManager<String> proxies = Bucket4jLettuce.casBasedBuilder(connection)
          .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
          .build();
      BucketConfiguration configuration = BucketConfiguration.builder()
          .addLimit(limit -> limit.capacity(HUGE).refillGreedy(HUGE, Duration.ofSeconds(1)))
          .build();
      bucket = proxies.builder().build("bucket4j:bench", () -> configuration);
    }

    @Override
    public boolean admit() {
      return bucket.tryConsume(1);
    }

    @Override
    public void close() {
      connection.close();
      client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }
  }

  /** Client resources for one design; with a counter, every command the client sends is counted. */
  static ClientResources resources(CommandCounter counter) {
    ClientResources.Builder builder = ClientResources.builder();
    if (counter != null) {
      builder.commandLatencyRecorder(counter);
    }
    return builder.build();
  }

  static void shutdown(ClientResources resources) {
    resources.shutdown(0, 1, TimeUnit.SECONDS);
  }

  /** Counts, by type, the commands a Lettuce client sent and got an answer to. */
  static final class CommandCounter implements CommandLatencyRecorder {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    @Override
    public void recordCommandLatency(
        SocketAddress local, SocketAddress remote, io.lettuce.core.protocol.ProtocolKeyword type,
        long firstResponseLatency, long completionLatency) {
      counts.computeIfAbsent(type.toString().toLowerCase(java.util.Locale.ROOT), k -> new LongAdder()).increment();
    }

    /** @return a copy of the counts so far, by command */
    Map<String, Long> snapshot() {
      Map<String, Long> copy = new TreeMap<>();
      counts.forEach((command, count) -> copy.put(command, count.sum()));
      return copy;
    }
  }
}
