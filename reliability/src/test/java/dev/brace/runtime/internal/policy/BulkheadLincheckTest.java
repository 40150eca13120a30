package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import dev.brace.reliability.Budget;
import dev.brace.reliability.Report;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.config.BulkheadConfig;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck explores interleavings of taking and returning permits of one real {@link
 * SemaphoreBulkhead} of two, and checks every result against {@link Model}, a plain counter: the
 * bulkhead never admits a third holder, a returned permit is free again at once, and a release
 * without its acquire is refused instead of growing the bulkhead. {@link Operations#refusalsReported}
 * checks that each refusal was reported as one {@code bulkhead.rejected} event.
 */
// Model checking is CPU-bound work, not a wait: at a load of 30 on two cores the bulkhead's six
// scenarios took 226 s, past the build's two-minute default, which is meant to catch hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class BulkheadLincheckTest {
  static final int MAX_CONCURRENT = 2;

  /** The operations on the real bulkhead. */
  public static class Operations {
    private final EventBus bus = new EventBus(Clock.systemUTC());
    private final SemaphoreBulkhead bulkhead =
        new SemaphoreBulkhead(
            BulkheadConfig.builder("lincheck").maxConcurrent(MAX_CONCURRENT).build(),
            () -> {
              throw new IllegalStateException("maxWait is zero: nobody waits, so no deadline is scheduled");
            },
            bus);
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger reported = new AtomicInteger();

    public Operations() {
      bus.subscribe(event -> reported.incrementAndGet());
    }

    /** @return whether a permit was taken, by the refusing path a caller takes */
    @Operation
    public boolean acquire() {
      try {
        bulkhead.acquire();
        return true;
      } catch (BulkheadFullException full) {
        refused.incrementAndGet();
        return false;
      }
    }

    /** @return whether a permit was taken, by the async driver's polling path */
    @Operation
    public boolean tryAcquire() {
      return bulkhead.tryAcquire();
    }

    /** @return whether a permit was returned; false when none was out */
    @Operation
    public boolean release() {
      try {
        bulkhead.release();
        return true;
      } catch (IllegalStateException nothingTaken) {
        return false;
      }
    }

    @Operation
    public int inFlight() {
      return bulkhead.inFlight();
    }

    @Operation
    public int available() {
      return bulkhead.available();
    }

    @Validate
    public void refusalsReported() {
      if (refused.get() != reported.get()) {
        throw new IllegalStateException(refused + " refusals but " + reported + " bulkhead.rejected events");
      }
      if (bulkhead.inFlight() + bulkhead.available() != MAX_CONCURRENT) {
        throw new IllegalStateException("in flight + available != " + MAX_CONCURRENT);
      }
    }
  }

  /** The sequential specification: a counter of permits out. */
  public static class Model {
    private int out;

    public boolean acquire() {
      return tryAcquire();
    }

    public boolean tryAcquire() {
      if (out == MAX_CONCURRENT) {
        return false;
      }
      out++;
      return true;
    }

    public boolean release() {
      if (out == 0) {
        return false;
      }
      out--;
      return true;
    }

    public int inFlight() {
      return out;
    }

    public int available() {
      return MAX_CONCURRENT - out;
    }
  }

  @Test
  void neverMoreThanMaxConcurrentAndEveryPermitComesBack() {
    Report report = new Report("lincheck-bulkhead");
    int iterations = Budget.pick(6, 30);
    int invocations = Budget.pick(300, 1_000);
    new ModelCheckingOptions()
            .iterations(iterations)
            .invocationsPerIteration(invocations)
            .threads(3)
            .actorsPerThread(3)
            .actorsBefore(2)
            .actorsAfter(1)
            .sequentialSpecification(Model.class).check(Operations.class);
    report.put("strategy", "model-checking").put("scenarios", iterations).put("invocations_per_scenario", invocations);
    if (Budget.longMode()) {
      new StressOptions()
              .iterations(30)
              .invocationsPerIteration(2_000)
              .threads(3)
              .actorsPerThread(4)
              .sequentialSpecification(Model.class).check(Operations.class);
      report.put("stress_scenarios", 30);
    }
    report.put("invariants", "linearizable-vs-counter,bound,release-without-acquire-refused,refusals-reported").print();
  }
}
