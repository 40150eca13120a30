package dev.brace.examples.capacity;

import dev.brace.Bulkhead;
import dev.brace.examples.capacity.Timeline.Outcome;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the demo's two parts. Capacity: three copies of the catalog service, each called at the same
 * rate (half of the calls asking for sheddable suggestions) through a fixed bulkhead of 40, a
 * fixed one of 10 and the adaptive one, at the same time, while every copy's capacity goes from 40
 * to 10 and back. Quota: two copies of the quota API, called through a fixed limiter above the
 * quota and through the adaptive one.
 */
public final class CapacityScenario {
  /** The bulkhead every capacity run shares the name of, each in its own registry. */
  public static final String BULKHEAD = "catalog-api";
  /** How long the callers call a healthy service before anything is recorded. */
  static final Duration WARM_UP = Duration.ofSeconds(5);
  /** The limiter of the quota runs. */
  public static final String LIMITER = "quota-api";

  /**
   * A stretch of the capacity run.
   *
   * @param name how the report calls it
   * @param capacity requests the service serves at once
   * @param length how long it lasts
   */
  public record Phase(String name, int capacity, Duration length) {}

  /**
   * One run: what its callers saw.
   *
   * @param label how the report calls it
   * @param timeline per quarter second; gauge A is the bulkhead's limit (or the limiter's rate),
   *     gauge B the calls in flight (or nothing)
   */
  public record Run(String label, Timeline timeline) {}

  /**
   * @param phases the capacity script
   * @param capacityRuns fixed 40, fixed 10, adaptive
   * @param quotaSeconds how long the quota runs lasted
   * @param quotaRuns fixed, adaptive
   */
  public record Result(List<Phase> phases, List<Run> capacityRuns, int quotaSeconds, List<Run> quotaRuns) {}

  private CapacityScenario() {}

  /** @return healthy (40) for 12 s, degraded (10) for 20 s, recovered (40) for 12 s */
  public static List<Phase> standard() {
    return List.of(
        new Phase("healthy", 40, Duration.ofSeconds(12)),
        new Phase("degraded", 10, Duration.ofSeconds(20)),
        new Phase("recovered", 40, Duration.ofSeconds(12)));
  }

  /**
   * Runs both parts.
   *
   * @param phases the capacity script
   * @param arrivalsPerSecond calls a second per capacity run (Poisson arrivals, half of them sheddable)
   * @param quotaSeconds how long the quota runs last
   * @param out where progress goes
   * @return what every run saw
   * @throws Exception when a service cannot start or a run is interrupted
   */
  public static Result run(List<Phase> phases, double arrivalsPerSecond, int quotaSeconds, PrintStream out) throws Exception {
    out.println("capacity: the service serves 40 at once, then 10, then 40 again; " + arrivalsPerSecond
        + " calls a second per run, half of them sheddable");
    List<Run> capacity = together(List.of(
        () -> capacityRun("fixed bulkhead of 40", r -> r.bulkhead(BULKHEAD, b -> b.adaptive(Bulkhead.Adaptive.NONE).maxConcurrent(40)), phases, arrivalsPerSecond),
        () -> capacityRun("fixed bulkhead of 10", r -> r.bulkhead(BULKHEAD, b -> b.adaptive(Bulkhead.Adaptive.NONE).maxConcurrent(10)), phases, arrivalsPerSecond),
        () -> capacityRun("adaptive bulkhead (Vegas, up to 60)", r -> { }, phases, arrivalsPerSecond)));
    out.println("quota: the API allows " + CatalogService.QUOTA + " calls a second and answers 429 above it; limiters set to 200 a second");
    List<Run> quota = together(List.of(
        () -> quotaRun("fixed limiter of 200/s", r -> r.rateLimit(LIMITER, l -> l.adaptive(false)), quotaSeconds),
        () -> quotaRun("adaptive limiter from 200/s", r -> { }, quotaSeconds)));
    return new Result(phases, capacity, quotaSeconds, quota);
  }

  /** A run that can fail. */
  @FunctionalInterface
  private interface RunTask {
    Run run() throws Exception;
  }

  private static List<Run> together(List<RunTask> tasks) throws Exception {
    List<Run> runs = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    Exception[] failure = new Exception[1];
    Run[] results = new Run[tasks.size()];
    for (int i = 0; i < tasks.size(); i++) {
      int index = i;
      Thread thread = new Thread(() -> {
        try {
          results[index] = tasks.get(index).run();
        } catch (Exception failed) {
          failure[0] = failed;
        }
      }, "run-" + i);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure[0] != null) {
      throw failure[0];
    }
    runs.addAll(List.of(results));
    return runs;
  }

  private static Run capacityRun(String label, Consumer<Registry.Builder> settings, List<Phase> phases, double arrivalsPerSecond)
      throws Exception {
    long totalMillis = phases.stream().mapToLong(phase -> phase.length().toMillis()).sum();
    Timeline timeline = new Timeline((int) (totalMillis / Timeline.BUCKET_MILLIS));
    Registry.Builder builder = Registry.builder();
    settings.accept(builder);
    Registry registry = builder.build();
    ExecutorService callers = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "caller");
      thread.setDaemon(true);
      return thread;
    });
    try (CatalogService service = CatalogService.start(phases.get(0).capacity())) {
      CatalogClient client = ResilientCatalogClient.wrap(new HttpCatalogClient(http(), service.uri()), registry);
      // Warmed up first (JIT, connections), on the healthy service; only what follows is recorded.
      long start = System.nanoTime() + WARM_UP.toNanos();
      long end = start + TimeUnit.MILLISECONDS.toNanos(totalMillis);
      Thread arrivals = new Thread(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long next = System.nanoTime();
        int n = 0;
        while (next < end) {
          long wait = next - System.nanoTime();
          if (wait > 0) {
            pause(TimeUnit.NANOSECONDS.toMillis(wait));
          }
          boolean sheddable = random.nextBoolean();
          String user = "user-" + n++;
          callers.execute(() -> call(client, sheddable, user, start, timeline));
          // Poisson arrivals: users do not wait for each other, so a slow service meets the same demand.
          next += (long) (-Math.log(1 - random.nextDouble()) / arrivalsPerSecond * 1e9);
        }
      }, "arrivals");
      arrivals.setDaemon(true);
      arrivals.start();
      TimeUnit.NANOSECONDS.sleep(Math.max(0, start - System.nanoTime()));
      sample(timeline, start, () -> {
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        service.capacity(capacityAt(phases, elapsed));
        return new double[] {registry.bulkhead(BULKHEAD).limit(), registry.bulkhead(BULKHEAD).inFlight()};
      });
      arrivals.join();
      callers.shutdown();
      callers.awaitTermination(10, TimeUnit.SECONDS);
    }
    return new Run(label, timeline);
  }

  private static void call(CatalogClient client, boolean sheddable, String user, long start, Timeline timeline) {
    long asked = System.nanoTime();
    Outcome outcome;
    try {
      if (sheddable) {
        client.suggestions(user);
      } else {
        client.page(user);
      }
      outcome = sheddable ? Outcome.SERVED_SHEDDABLE : Outcome.SERVED_DEFAULT;
    } catch (BulkheadFullException shed) {
      outcome = Outcome.REFUSED;
    } catch (TimeoutExceededException late) {
      outcome = Outcome.TIMED_OUT;
    } catch (IOException | RuntimeException failed) {
      outcome = Outcome.FAILED;
    }
    long now = System.nanoTime();
    if (now >= start) {
      timeline.record(TimeUnit.NANOSECONDS.toMillis(now - start), outcome, TimeUnit.NANOSECONDS.toMillis(now - asked));
    }
  }

  private static Run quotaRun(String label, Consumer<Registry.Builder> settings, int seconds) throws Exception {
    Timeline timeline = new Timeline(seconds * 4);
    Registry.Builder builder = Registry.builder();
    settings.accept(builder);
    Registry registry = builder.build();
    try (CatalogService service = CatalogService.start(40)) {
      QuotaClient client = ResilientQuotaClient.wrap(new HttpCatalogClient(http(), service.uri()), registry);
      long start = System.nanoTime();
      long end = start + TimeUnit.SECONDS.toNanos(seconds);
      int callers = 20;
      CountDownLatch done = new CountDownLatch(callers);
      for (int c = 0; c < callers; c++) {
        String user = "user-" + c;
        Thread caller = new Thread(() -> {
          try {
            while (System.nanoTime() < end) {
              long asked = System.nanoTime();
              Outcome outcome;
              try {
                client.lookup(user);
                outcome = Outcome.SERVED_DEFAULT;
              } catch (TooManyRequestsException throttled) {
                outcome = Outcome.THROTTLED;
              } catch (RateLimitedException refused) {
                outcome = Outcome.REFUSED;
              } catch (IOException | RuntimeException failed) {
                outcome = Outcome.FAILED;
              }
              long now = System.nanoTime();
              timeline.record(TimeUnit.NANOSECONDS.toMillis(now - start), outcome, TimeUnit.NANOSECONDS.toMillis(now - asked));
            }
          } finally {
            done.countDown();
          }
        }, "quota-caller-" + c);
        caller.setDaemon(true);
        caller.start();
      }
      sample(timeline, start, () -> new double[] {registry.rateLimiter(LIMITER).currentRate(), 0});
      done.await(30, TimeUnit.SECONDS);
    }
    return new Run(label, timeline);
  }

  /** What the sampler reads at the end of each quarter second. */
  @FunctionalInterface
  private interface Gauges {
    double[] read();
  }

  private static void sample(Timeline timeline, long start, Gauges gauges) throws InterruptedException {
    for (int bucket = 0; bucket < timeline.buckets(); bucket++) {
      long due = start + TimeUnit.MILLISECONDS.toNanos((bucket + 1) * Timeline.BUCKET_MILLIS);
      double[] values = gauges.read();
      timeline.sample(bucket, values[0], values[1]);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
    }
  }

  /** @return the service's capacity {@code elapsedMillis} into the run */
  public static int capacityAt(List<Phase> phases, long elapsedMillis) {
    long at = 0;
    for (Phase phase : phases) {
      at += phase.length().toMillis();
      if (elapsedMillis < at) {
        return phase.capacity();
      }
    }
    return phases.get(phases.size() - 1).capacity();
  }

  private static HttpClient http() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException stopped) {
      Thread.currentThread().interrupt();
    }
  }
}
