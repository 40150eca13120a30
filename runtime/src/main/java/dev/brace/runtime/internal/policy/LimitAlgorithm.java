package dev.brace.runtime.internal.policy;

import dev.brace.Bulkhead;
import dev.brace.runtime.config.BulkheadConfig;

/**
 * How an adaptive bulkhead's limit moves after a completed call. Each algorithm follows the update
 * rule Netflix's concurrency-limits library publishes for the algorithm of the same name (its
 * defaults included), so a sequence of samples moves the limit as that library would; Brace's
 * bounds are {@code minConcurrent} and {@code maxConcurrent}.
 *
 * <p>Not thread-safe: {@link AdaptiveLimit} feeds samples to it one at a time.
 */
abstract class LimitAlgorithm {
  /** The bounds; moved only by {@link #rebound}, on the thread that feeds the samples. */
  int minimum;
  int maximum;

  LimitAlgorithm(int minimum, int maximum) {
    this.minimum = minimum;
    this.maximum = maximum;
  }

  /**
   * @param config an adaptive bulkhead's settings
   * @return its algorithm, at {@code initialConcurrent}
   * @throws IllegalArgumentException when the bulkhead is not adaptive
   */
  static LimitAlgorithm of(BulkheadConfig config) {
    int min = config.minConcurrent();
    int max = config.maxConcurrent();
    int initial = config.initialConcurrent();
    switch (config.adaptive()) {
      case AIMD:
        return new Aimd(min, max, initial);
      case GRADIENT2:
        return new Gradient2(min, max, initial);
      case VEGAS:
        return new Vegas(min, max, initial, Vegas.PROBE_MULTIPLIER);
      default:
        throw new IllegalArgumentException("bulkhead '" + config.name() + "' is not adaptive: " + Bulkhead.Adaptive.NONE);
    }
  }

  /**
   * Applies one completed call.
   *
   * @param rttNanos how long it took, at least 1
   * @param inFlight the calls in flight when it was admitted, itself included
   * @param drop whether it timed out or the dependency refused it
   * @return the new limit, within the bounds
   */
  abstract int update(long rttNanos, int inFlight, boolean drop);

  /**
   * New bounds from new settings: what the algorithm has learnt stays, and its limit is clamped to them.
   *
   * @param minimum the new {@code minConcurrent}
   * @param maximum the new {@code maxConcurrent}
   * @return the limit now, within the new bounds
   */
  final int rebound(int minimum, int maximum) {
    this.minimum = minimum;
    this.maximum = maximum;
    return clamp();
  }

  /** @return the limit, clamped to the bounds (as it is kept) */
  abstract int clamp();

  final int bounded(int limit) {
    return Math.max(minimum, Math.min(maximum, limit));
  }

  final double bounded(double limit) {
    return Math.max(minimum, Math.min(maximum, limit));
  }

  /** Additive increase, multiplicative decrease (Netflix's {@code AIMDLimit}, backoff 0.9). */
  static final class Aimd extends LimitAlgorithm {
    static final double BACKOFF = 0.9;
    private int limit;

    Aimd(int minimum, int maximum, int initial) {
      super(minimum, maximum);
      this.limit = initial;
    }

    @Override
    int update(long rttNanos, int inFlight, boolean drop) {
      if (drop) {
        limit = (int) (limit * BACKOFF);
      } else if (inFlight * 2 >= limit) {
        // Grow only when the limit was in use: an idle bulkhead learns nothing about capacity.
        limit = limit + 1;
      }
      limit = bounded(limit);
      return limit;
    }

    @Override
    int clamp() {
      limit = bounded(limit);
      return limit;
    }
  }

  /**
   * The gradient of a long-term average latency over the latest one (Netflix's {@code
   * Gradient2Limit}: smoothing 0.2, a queue allowance of 4, a 600-sample average after a 10-sample
   * warm-up, tolerance 1.5). Drops are not a signal of their own: their latency is.
   */
  static final class Gradient2 extends LimitAlgorithm {
    static final double SMOOTHING = 0.2;
    static final double QUEUE = 4;
    static final double TOLERANCE = 1.5;
    static final int LONG_WINDOW = 600;
    static final int WARM_UP = 10;

    private double estimate;
    private double longRtt;
    private double warmUpSum;
    private int warmUpCount;

    Gradient2(int minimum, int maximum, int initial) {
      super(minimum, maximum);
      this.estimate = initial;
    }

    @Override
    int clamp() {
      estimate = bounded(estimate);
      return (int) estimate;
    }

    @Override
    int update(long rttNanos, int inFlight, boolean drop) {
      double shortRtt = rttNanos;
      double longAverage = addToLongAverage(shortRtt);
      if (longAverage / shortRtt > 2) {
        // Latency came back down after a long spell of load: let the average follow faster.
        longRtt = longRtt * 0.95;
      }
      if (inFlight < estimate / 2) {
        return (int) estimate;
      }
      double gradient = Math.max(0.5, Math.min(1.0, TOLERANCE * longAverage / shortRtt));
      double next = estimate * gradient + QUEUE;
      next = estimate * (1 - SMOOTHING) + next * SMOOTHING;
      estimate = bounded(next);
      return (int) estimate;
    }

    private double addToLongAverage(double sample) {
      if (warmUpCount < WARM_UP) {
        warmUpCount++;
        warmUpSum += sample;
        longRtt = warmUpSum / warmUpCount;
      } else {
        double factor = 2.0 / (LONG_WINDOW + 1);
        longRtt = longRtt * (1 - factor) + sample * factor;
      }
      return longRtt;
    }
  }

  /**
   * TCP Vegas (Netflix's {@code VegasLimit}: alpha 3, beta 6, threshold, increase and decrease 1,
   * each times {@code max(1, floor(log10 limit))}; smoothing 1; the no-load latency probed again
   * after about 30 × limit samples, jittered).
   */
  static final class Vegas extends LimitAlgorithm {
    static final int PROBE_MULTIPLIER = 30;

    private final int probeMultiplier;
    private double estimate;
    private long noLoadRtt;
    private int probeCount;
    private double probeJitter;

    Vegas(int minimum, int maximum, int initial, int probeMultiplier) {
      super(minimum, maximum);
      this.estimate = initial;
      this.probeMultiplier = probeMultiplier;
      resetProbeJitter();
    }

    @Override
    int clamp() {
      estimate = bounded(estimate);
      return (int) estimate;
    }

    private void resetProbeJitter() {
      probeJitter = java.util.concurrent.ThreadLocalRandom.current().nextDouble(0.5, 1);
    }

    @Override
    int update(long rttNanos, int inFlight, boolean drop) {
      probeCount++;
      if (probeJitter * probeMultiplier * estimate <= probeCount) {
        // Forget the lowest latency now and then, so a dependency that got slower for good is learnt.
        resetProbeJitter();
        probeCount = 0;
        noLoadRtt = rttNanos;
        return (int) estimate;
      }
      if (noLoadRtt == 0 || rttNanos < noLoadRtt) {
        noLoadRtt = rttNanos;
        return (int) estimate;
      }
      int queue = (int) Math.ceil(estimate * (1 - (double) noLoadRtt / rttNanos));
      double next;
      if (drop) {
        next = estimate - log10(estimate);
      } else if (inFlight * 2 < estimate) {
        return (int) estimate;
      } else {
        int step = log10(estimate);
        int alpha = 3 * step;
        int beta = 6 * step;
        if (queue <= step) {
          next = estimate + beta;
        } else if (queue < alpha) {
          next = estimate + step;
        } else if (queue > beta) {
          next = estimate - step;
        } else {
          return (int) estimate;
        }
      }
      estimate = bounded(next);
      return (int) estimate;
    }

    private static int log10(double limit) {
      return Math.max(1, (int) Math.log10((int) limit));
    }
  }
}
