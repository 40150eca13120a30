package dev.brace.examples.tail;

import dev.brace.examples.incident.RunStats;
import dev.brace.runtime.Event;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Runs the ways of calling against one {@link TailService} in rounds: in each round every way in
 * turn has its callers make a short batch of calls. So only one way loads the machine at a time,
 * while each way is spread over the whole run and meets the same tail and, on a shared machine,
 * the same background load as the others. Each caller calls one after the other and times every
 * call.
 */
public final class TailRun {
  /** How long requests already sent may take to reach the service before it is asked what it received. */
  private static final Duration ARRIVAL_GRACE = Duration.ofMillis(300);

  /**
   * One way of calling.
   *
   * @param title how the report calls it
   * @param key what its requests name as {@code way}, and what its Brace events carry as {@code call}
   * @param client how it calls
   */
  public record Way(String title, String key, PriceClient client) {}

  /**
   * What one way's calls took and cost.
   *
   * @param way the way
   * @param latencyMicros every call's time, sorted
   * @param errors calls that failed
   * @param received requests the service received for this way
   * @param events Brace's events about this way's calls, by kind (see {@link TailRun#tally})
   */
  public record Result(Way way, long[] latencyMicros, long errors, long received, Map<String, Long> events) {
    /** @return how many calls were made */
    public int calls() {
      return latencyMicros.length;
    }

    /**
     * @param quantile 0.5 for the median, 0.999 for p99.9
     * @return that quantile of the calls' latency, in milliseconds
     */
    public double millis(double quantile) {
      return RunStats.quantileMillis(latencyMicros, quantile);
    }

    /** @return requests received per call, less one: the extra load this way put on the service */
    public double extraLoad() {
      return (double) received / calls() - 1;
    }

    /**
     * @param kind an event name
     * @return how many of it the registry emitted for this way
     */
    public long events(String kind) {
      return events.getOrDefault(kind, 0L);
    }
  }

  private TailRun() {}

  /**
   * @param service the service every way calls
   * @param ways the ways, each sending its requests under its own {@link Way#key}
   * @param callers callers per way
   * @param rounds how many rounds
   * @param callsPerRound calls each caller makes in a round
   * @param events Brace's events so far, by way key, then by kind; cleared before the calls start
   * @return one result per way, in order
   * @throws InterruptedException when interrupted while waiting for the callers
   */
  public static List<Result> run(TailService service, List<Way> ways, int callers, int rounds, int callsPerRound,
      Map<String, Map<String, LongAdder>> events) throws InterruptedException {
    List<long[]> latencies = new ArrayList<>();
    List<AtomicLong> errors = new ArrayList<>();
    long[] receivedBefore = new long[ways.size()];
    for (int w = 0; w < ways.size(); w++) {
      latencies.add(new long[callers * rounds * callsPerRound]);
      errors.add(new AtomicLong());
      receivedBefore[w] = service.received(ways.get(w).key());
    }
    events.clear();
    for (int round = 0; round < rounds; round++) {
      for (int w = 0; w < ways.size(); w++) {
        Way way = ways.get(w);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
          int first = (round * callers + c) * callsPerRound;
          long[] micros = latencies.get(w);
          AtomicLong failed = errors.get(w);
          Thread caller = new Thread(() -> call(way.client(), micros, first, callsPerRound, failed), way.key() + "-caller-" + c);
          caller.setDaemon(true);
          threads.add(caller);
          caller.start();
        }
        for (Thread thread : threads) {
          thread.join();
        }
      }
    }
    Thread.sleep(ARRIVAL_GRACE.toMillis());
    List<Result> results = new ArrayList<>();
    for (int w = 0; w < ways.size(); w++) {
      Way way = ways.get(w);
      long[] sorted = latencies.get(w).clone();
      Arrays.sort(sorted);
      Map<String, Long> counted = new ConcurrentHashMap<>();
      events.getOrDefault(way.key(), Map.of()).forEach((kind, count) -> counted.put(kind, count.sum()));
      results.add(new Result(way, sorted, errors.get(w).get(), service.received(way.key()) - receivedBefore[w], Map.copyOf(counted)));
    }
    return results;
  }

  private static void call(PriceClient client, long[] micros, int first, int count, AtomicLong failed) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < count; i++) {
      long began = System.nanoTime();
      try {
        client.price("sku-" + random.nextInt(10_000));
      } catch (IOException | RuntimeException failure) {
        failed.incrementAndGet();
      }
      micros[first + i] = (System.nanoTime() - began) / 1000;
    }
  }

  /**
   * Counts Brace's events per way, by the call they carry ({@code call}, which is a Brace way's
   * {@link Way#key}), then by kind; and two counts the report reads besides: {@code
   * hedge.won.hedge}, races a hedge won, and {@code retry.retried}, failed attempts a retry
   * followed.
   *
   * @param events where to count
   * @return the listener to subscribe to the registry
   */
  public static Consumer<Event> tally(Map<String, Map<String, LongAdder>> events) {
    return event -> {
      Object call = event.attributes().get("call");
      if (call == null) {
        return;
      }
      Map<String, LongAdder> byKind = events.computeIfAbsent(call.toString(), key -> new ConcurrentHashMap<>());
      byKind.computeIfAbsent(event.kind(), kind -> new LongAdder()).increment();
      if (event.kind().equals("hedge.won") && !Integer.valueOf(1).equals(event.attributes().get("attempt"))) {
        byKind.computeIfAbsent("hedge.won.hedge", kind -> new LongAdder()).increment();
      }
      if (event.kind().equals("retry.attempt_failed") && event.attributes().containsKey("delay_ms")) {
        byKind.computeIfAbsent("retry.retried", kind -> new LongAdder()).increment();
      }
    };
  }

  /**
   * @param results the ways' results
   * @param of what to read from each
   * @return the largest value among them
   */
  static long max(List<Result> results, ToLongFunction<Result> of) {
    return results.stream().mapToLong(of).max().orElse(0);
  }
}
