package dev.brace.benchmarks;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Round trips per admission, outside JMH: one redis-server, and for each design 1 thread, then 16
 * threads, making 10,000 admissions together on one bucket that always admits, after 1,000 to warm
 * up (and load the scripts). Two counts, before and after the 10,000:
 *
 * <ul>
 *   <li>the commands the design's Lettuce client sent (a recorder on its client resources): these
 *       are the round trips;
 *   <li>Redis's own {@code INFO commandstats}: it counts the commands a Lua script runs inside the
 *       server too ({@code time}, {@code get}, {@code set}, …), so it shows what the server did,
 *       not how often the client waited on the network.
 * </ul>
 *
 * Usage: {@code java -cp benchmarks.jar dev.brace.benchmarks.RedisRoundTrips [out.md]}.
 */
public final class RedisRoundTrips {
  static final int[] THREADS = {1, 16};
  static final int ADMISSIONS = 10_000;
  static final int WARMUP = 1_000;

  private RedisRoundTrips() {}

  public static void main(String[] args) throws Exception {
    StringBuilder out = new StringBuilder();
    out.append("# Redis round trips per admission\n\n")
        .append("- ").append(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")))
        .append(", ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs, ")
        .append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version")).append('\n')
        .append("- ").append(ADMISSIONS)
        .append(" admissions on one always-admitting bucket, after ").append(WARMUP).append(" to warm up\n\n")
        .append("| design | threads | admitted | client commands sent (per admission) | round trips / admission | server commandstats, incl. inside scripts (per admission) |\n")
        .append("|---|---:|---:|---|---:|---|\n");
    try (RedisServerProcess server = RedisServerProcess.start()) {
      RedisClient inspector = RedisClient.create(server.uri());
      try (StatefulRedisConnection<String, String> stats = inspector.connect()) {
        for (int threads : THREADS) {
          out.append(measure("Brace (Lua script, server TIME)", threads, stats,
              resources -> new RedisDesigns.Brace(server.uri(), resources)));
          out.append(measure("Bucket4j 8.14.0 Lettuce CAS proxy", threads, stats,
              resources -> new RedisDesigns.Bucket4j(server.uri(), resources)));
        }
      } finally {
        inspector.shutdown();
      }
    }
    System.out.print(out);
    if (args.length > 0) {
      Files.writeString(Path.of(args[0]), out);
      System.out.println("Written to " + args[0]);
    }
    System.exit(0);
  }

  private static String measure(
      String name, int threads, StatefulRedisConnection<String, String> stats,
      Function<ClientResources, RedisDesigns.Admission> design) throws Exception {
    RedisDesigns.CommandCounter counter = new RedisDesigns.CommandCounter();
    ClientResources resources = RedisDesigns.resources(counter);
    try (RedisDesigns.Admission admission = design.apply(resources)) {
      run(admission, threads, WARMUP);
      Map<String, Long> clientBefore = counter.snapshot();
      Map<String, Long> serverBefore = commandStats(stats);
      long admitted = run(admission, threads, ADMISSIONS);
      Map<String, Long> client = minus(counter.snapshot(), clientBefore);
      Map<String, Long> serverSide = minus(commandStats(stats), serverBefore);
      serverSide.remove("info"); // our own INFO
      long sent = client.values().stream().mapToLong(Long::longValue).sum();
      return String.format("| %s | %d | %d | %s | %.3f | %s |%n",
          name, threads, admitted, describe(client), (double) sent / ADMISSIONS, describe(serverSide));
    } finally {
      RedisDesigns.shutdown(resources);
    }
  }

  /** @return how many of {@code total} admissions were admitted, by {@code count} threads together */
  private static long run(RedisDesigns.Admission admission, int count, int total) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(count);
    CountDownLatch go = new CountDownLatch(1);
    AtomicLong admitted = new AtomicLong();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < count; t++) {
        int share = total / count + (t < total % count ? 1 : 0);
        done.add(threads.submit(() -> {
          go.await();
          for (int i = 0; i < share; i++) {
            if (admission.admit()) {
              admitted.incrementAndGet();
            }
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> each : done) {
        each.get(5, TimeUnit.MINUTES);
      }
    } finally {
      threads.shutdownNow();
    }
    return admitted.get();
  }

  /** @return calls by command from {@code INFO commandstats} */
  private static Map<String, Long> commandStats(StatefulRedisConnection<String, String> connection) {
    Map<String, Long> calls = new TreeMap<>();
    for (String line : connection.sync().info("commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_")) {
        String command = line.substring("cmdstat_".length(), line.indexOf(':'));
        String field = line.substring(line.indexOf("calls=") + "calls=".length());
        calls.put(command, Long.parseLong(field.substring(0, field.indexOf(','))));
      }
    }
    return calls;
  }

  private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
    Map<String, Long> delta = new TreeMap<>();
    after.forEach((command, count) -> {
      long d = count - before.getOrDefault(command, 0L);
      if (d != 0) {
        delta.put(command, d);
      }
    });
    return delta;
  }

  private static String describe(Map<String, Long> counts) {
    StringBuilder text = new StringBuilder();
    counts.forEach((command, count) -> text.append(text.length() == 0 ? "" : ", ")
        .append(command).append(' ').append(count)
        .append(String.format(" (%.2f)", (double) count / ADMISSIONS)));
    return text.length() == 0 ? "none" : text.toString();
  }
}
