package dev.brace.micrometer;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.metrics.InstanceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The counters and timers of one instance, each registered on its first sample (as a series
 * appears only once something happened) and then held here: a report is an array read and an
 * increment. Which of them an instance uses depends on its kind; the meters themselves are kept in
 * the {@link MeterBook}, so instances that share a meter (a keyed family's members) share it.
 */
final class InstanceMeters implements InstanceMetrics {
  private static final CircuitState[] STATES = CircuitState.values();

  /** Every counter an instance may count: the meter it lands in and the tag that sets it apart from its siblings. */
  private enum Counted {
    /** Every refused attempt, including those a retry or a fallback then answered: a call's outcome hides them. */
    REJECTED("brace.rejections", "attempts refused by a breaker, limiter or bulkhead", "kind", null),
    RETRIED("brace.retry.attempts", Counted.RETRY_ATTEMPTS, "outcome", "retried"),
    EXHAUSTED("brace.retry.attempts", Counted.RETRY_ATTEMPTS, "outcome", "exhausted"),
    HEDGE_STARTED("brace.hedge.attempts", Counted.HEDGE_ATTEMPTS, "outcome", "started"),
    HEDGE_REFUSED("brace.hedge.attempts", Counted.HEDGE_ATTEMPTS, "outcome", "budget_exhausted"),
    WON_BY_FIRST("brace.hedge.wins", Counted.HEDGE_WINS, "winner", "first"),
    WON_BY_HEDGE("brace.hedge.wins", Counted.HEDGE_WINS, "winner", "hedge"),
    TIMED_OUT("brace.timeouts", "attempts cut off at their deadline", null, null),
    /** Its instance is the call: no breaker counts these, and the call's own sample says only {@code failure}. */
    DEADLINE_EXCEEDED("brace.deadline.exceeded", "calls that ran out of the deadline they run under", null, null),
    STALE_SERVED("brace.stale", Counted.STALE, "outcome", "served"),
    STALE_MISSING("brace.stale", Counted.STALE, "outcome", "missing");

    private static final String RETRY_ATTEMPTS = "failed attempts a retry answered with another attempt, or not";
    private static final String HEDGE_ATTEMPTS = "hedges started, or not started because the budget was empty";
    private static final String HEDGE_WINS = "races decided after hedges had started, by the original attempt or by a hedge";
    private static final String STALE = "failed calls answered with a remembered result, or with none young enough";

    final String meterName;
    final String description;
    /** Null for a counter with only the instance's tags. */
    final String tag;
    /** Null for the instance's kind. */
    final String value;

    Counted(String meterName, String description, String tag, String value) {
      this.meterName = meterName;
      this.description = description;
      this.tag = tag;
      this.value = value;
    }

    Counter.Builder builder(Tags instanceTags, Kind kind) {
      Counter.Builder builder = Counter.builder(meterName).description(description).tags(instanceTags);
      return tag == null ? builder : builder.tag(tag, value == null ? kind.key() : value);
    }
  }

  private final MeterBook book;
  private final Kind kind;
  private final String name;
  private final AtomicReferenceArray<Counter> counters = new AtomicReferenceArray<>(Counted.values().length);
  /** By {@code from * states + to}. */
  private final AtomicReferenceArray<Counter> transitions = new AtomicReferenceArray<>(STATES.length * STATES.length);
  private volatile Timer waits;
  /** A fault injection's latency (0) and fault (1) counters, each with what its name names. */
  private final AtomicReferenceArray<Injections> injections = new AtomicReferenceArray<>(2);

  InstanceMeters(MeterBook book, Kind kind, String name) {
    this.book = book;
    this.kind = kind;
    this.name = name;
  }

  @Override
  public void rejected() {
    count(Counted.REJECTED);
  }

  @Override
  public void waited(long nanos) {
    Timer timer = waits;
    if (timer == null) {
      String meterName = kind == Kind.BULKHEAD ? "brace.bulkhead.wait" : "brace.ratelimit.wait";
      String description = kind == Kind.BULKHEAD
          ? "time callers waited for a bulkhead's permit"
          : "time callers waited for a rate limiter's token";
      waits = timer = (Timer) book.instanceMeter(meterName, name,
          tags -> Timer.builder(meterName).description(description).tags(tags));
    }
    timer.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Every state change, which a scrape of the state gauge can miss. */
  @Override
  public void transitioned(CircuitState from, CircuitState to) {
    int index = from.ordinal() * STATES.length + to.ordinal();
    Counter counter = transitions.get(index);
    if (counter == null) {
      counter = (Counter) book.instanceMeter("brace.circuitbreaker.transitions|" + from + "|" + to, name,
          tags -> Counter.builder("brace.circuitbreaker.transitions")
              .description("circuit breaker state changes").tags(tags)
              .tag("from", stateName(from)).tag("to", stateName(to)));
      transitions.set(index, counter);
    }
    counter.increment();
  }

  /** {@code HALF_OPEN} becomes {@code half_open}: tag values in Micrometer's lowercase style. */
  private static String stateName(CircuitState state) {
    return state.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public void attemptFailed(boolean retried) {
    count(retried ? Counted.RETRIED : Counted.EXHAUSTED);
  }

  @Override
  public void hedgeStarted() {
    count(Counted.HEDGE_STARTED);
  }

  @Override
  public void hedgeBudgetExhausted() {
    count(Counted.HEDGE_REFUSED);
  }

  @Override
  public void hedgeWon(boolean first) {
    count(first ? Counted.WON_BY_FIRST : Counted.WON_BY_HEDGE);
  }

  @Override
  public void timedOut() {
    count(Counted.TIMED_OUT);
  }

  @Override
  public void deadlineExceeded() {
    count(Counted.DEADLINE_EXCEEDED);
  }

  @Override
  public void injected(String named, boolean fault) {
    int index = fault ? 1 : 0;
    Injections known = injections.get(index);
    if (known != null && known.named.equals(named)) {
      known.counter.increment();
      return;
    }
    // The first report, or a name that names a call for one call and an instance for another: rare.
    Counter counter = ChaosMeters.counter(book, named, name, fault);
    if (known == null) {
      injections.set(index, new Injections(named, counter));
    }
    counter.increment();
  }

  private record Injections(String named, Counter counter) {}

  @Override
  public void staleServed() {
    count(Counted.STALE_SERVED);
  }

  @Override
  public void staleMissing() {
    count(Counted.STALE_MISSING);
  }

  private void count(Counted what) {
    Counter counter = counters.get(what.ordinal());
    if (counter == null) {
      String apart = what.tag == null ? "" : "|" + (what.value == null ? kind.key() : what.value);
      counter = (Counter) book.instanceMeter(what.meterName + apart, name, tags -> what.builder(tags, kind));
      counters.set(what.ordinal(), counter);
    }
    counter.increment();
  }
}
