package dev.brace.examples.capacity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * What one run saw, per quarter second: counts by outcome, the latencies of served calls, and the
 * gauges sampled at the end of each quarter (the bulkhead's limit and calls in flight, a limiter's
 * rate). Thread-safe: callers record, one sampler samples.
 */
public final class Timeline {
  /** The width of one bucket. */
  public static final long BUCKET_MILLIS = 250;

  /** What a call ended in. */
  public enum Outcome {
    /** Served by the service (a {@code DEFAULT} page). */
    SERVED_DEFAULT,
    /** Served by the service (a {@code SHEDDABLE} suggestion). */
    SERVED_SHEDDABLE,
    /** Refused by the bulkhead (shed) or the limiter, without reaching the service. */
    REFUSED,
    /** Cut off by the client's {@code @Timeout}. */
    TIMED_OUT,
    /** Answered 429 by the service. */
    THROTTLED,
    /** Any other failure. */
    FAILED
  }

  private final int buckets;
  private final AtomicIntegerArray[] counts = new AtomicIntegerArray[Outcome.values().length];
  private final List<ConcurrentLinkedQueue<Long>> latencies = new ArrayList<>();
  private final double[] gaugeA;
  private final double[] gaugeB;

  /** @param buckets how many quarter seconds the run lasts */
  public Timeline(int buckets) {
    this.buckets = buckets;
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new AtomicIntegerArray(buckets);
    }
    for (int i = 0; i < buckets; i++) {
      latencies.add(new ConcurrentLinkedQueue<>());
    }
    this.gaugeA = new double[buckets];
    this.gaugeB = new double[buckets];
  }

  /** @return how many quarter seconds */
  public int buckets() {
    return buckets;
  }

  /** Records a call that ended {@code atMillis} into the run, after {@code latencyMillis}. */
  public void record(long atMillis, Outcome outcome, long latencyMillis) {
    int bucket = (int) (atMillis / BUCKET_MILLIS);
    if (bucket < 0 || bucket >= buckets) {
      return;
    }
    counts[outcome.ordinal()].incrementAndGet(bucket);
    if (outcome == Outcome.SERVED_DEFAULT || outcome == Outcome.SERVED_SHEDDABLE) {
      latencies.get(bucket).add(latencyMillis);
    }
  }

  /** Samples the two gauges of a bucket (for example the limit and the calls in flight). */
  public synchronized void sample(int bucket, double a, double b) {
    if (bucket >= 0 && bucket < buckets) {
      gaugeA[bucket] = a;
      gaugeB[bucket] = b;
    }
  }

  /** @return the count of an outcome in a bucket */
  public int count(Outcome outcome, int bucket) {
    return counts[outcome.ordinal()].get(bucket);
  }

  /** @return the first gauge of a bucket */
  public synchronized double gaugeA(int bucket) {
    return gaugeA[bucket];
  }

  /** @return the second gauge of a bucket */
  public synchronized double gaugeB(int bucket) {
    return gaugeB[bucket];
  }

  /** @return a percentile (0..100) of the served latencies in buckets [from, to), or -1 when none */
  public long latencyPercentile(int from, int to, double percentile) {
    List<Long> all = new ArrayList<>();
    for (int b = Math.max(0, from); b < Math.min(to, buckets); b++) {
      all.addAll(latencies.get(b));
    }
    if (all.isEmpty()) {
      return -1;
    }
    Collections.sort(all);
    return all.get((int) Math.min(all.size() - 1, Math.floor(percentile / 100 * all.size())));
  }

  /** @return the calls of an outcome in buckets [from, to) */
  public int total(Outcome outcome, int from, int to) {
    int sum = 0;
    for (int b = Math.max(0, from); b < Math.min(to, buckets); b++) {
      sum += count(outcome, b);
    }
    return sum;
  }
}
