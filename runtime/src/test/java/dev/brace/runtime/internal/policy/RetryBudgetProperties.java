package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * The retry budget against its formula, kept as a plain list of every deposit and withdrawal with
 * the slice it fell in: over the last ten slices of the window, retries ≤ percentCanRetry · calls
 * + minRetriesPerSecond · ttl. Each grant, refusal and {@code available()} is the list's answer.
 */
class RetryBudgetProperties {

  enum Kind { DEPOSIT, WITHDRAW, ADVANCE }

  /** One operation; {@code amount} is a time step in hundredths of a slice. */
  record Op(Kind kind, int amount) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    return Arbitraries.of(Kind.values())
        .flatMap(kind -> Arbitraries.integers().between(0, 1200).map(amount -> new Op(kind, amount)))
        .list().ofMaxSize(120);
  }

  @Property
  void everyGrantAndRefusalIsTheFormulasOverTheWindow(
      @ForAll @DoubleRange(min = 0.0, max = 1.0) double percentCanRetry,
      @ForAll @IntRange(min = 0, max = 3) int minRetriesPerSecond,
      @ForAll @IntRange(min = 1, max = 60) int ttlSeconds,
      @ForAll("ops") List<Op> ops) {
    ManualTimeSource clock = new ManualTimeSource();
    Duration ttl = Duration.ofSeconds(ttlSeconds);
    RetryBudget budget = new RetryBudget("b", percentCanRetry, minRetriesPerSecond, ttl, clock);
    long sliceNanos = ttl.toNanos() / RetryBudget.SLICES;
    double reserve = minRetriesPerSecond * ttl.toNanos() / 1e9;
    List<long[]> ledger = new ArrayList<>(); // {slice, 1 for a call or 0 for a retry}

    for (Op op : ops) {
      long slice = clock.nanoTime() / sliceNanos;
      long[] before = window(ledger, slice);
      long calls = before[0];
      long retries = before[1];
      switch (op.kind()) {
        case DEPOSIT:
          budget.deposit();
          ledger.add(new long[] {slice, 1});
          break;
        case WITHDRAW:
          boolean allowed = retries + 1 <= percentCanRetry * calls + reserve;
          assertEquals(allowed, budget.tryWithdraw(), retries + " retries, " + calls + " calls in the window");
          if (allowed) {
            ledger.add(new long[] {slice, 0});
          }
          break;
        case ADVANCE:
          clock.advance(Duration.ofNanos(sliceNanos * op.amount() / 100));
          continue;
        default:
          throw new IllegalStateException(op.toString());
      }
      long[] window = window(ledger, slice);
      assertEquals(Math.max(0, (long) Math.floor(percentCanRetry * window[0] + reserve) - window[1]),
          budget.available(), "available()");
    }
  }

  /** @return {calls, retries} in the ten slices up to {@code slice} */
  private static long[] window(List<long[]> ledger, long slice) {
    long calls = 0;
    long retries = 0;
    for (long[] entry : ledger) {
      if (entry[0] > slice - RetryBudget.SLICES) {
        calls += entry[1];
        retries += 1 - entry[1];
      }
    }
    return new long[] {calls, retries};
  }
}
