package dev.brace.runtime.internal.event;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.CallMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import dev.brace.runtime.metrics.MetricsListener;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The metrics listeners bound to a registry at one moment, as the one listener the call path
 * sees: it redacts every name a listener is given, as the event boundary redacts events, hands
 * each report to every listener, and logs and ignores one that throws, so a metrics binder can
 * neither leak a secret nor fail a call. Immutable: binding or unbinding one makes a new set, so
 * a {@link BoundMetrics} that kept this set's handles knows to ask again.
 *
 * <p>A new meter is one method on {@link CallMetrics} or {@link InstanceMetrics}, its forwarding
 * here (the compiler asks for it), its implementation in the binder, and one call where it happens.
 */
final class MetricsListeners implements MetricsListener {
  private final MetricsListener[] bound;

  MetricsListeners(List<MetricsListener> bound) {
    this.bound = bound.toArray(new MetricsListener[0]);
  }

  @Override
  public CallMetrics call(String callName) {
    String name = Redactor.redact(callName);
    List<CallMetrics> each = new ArrayList<>(bound.length);
    for (MetricsListener listener : bound) {
      try {
        CallMetrics metrics = listener.call(name);
        if (metrics != null) {
          each.add(metrics);
        }
      } catch (Throwable failure) {
        ignore(listener, "call " + name, failure);
      }
    }
    return each.isEmpty() ? null : new Calls(each.toArray(new CallMetrics[0]));
  }

  @Override
  public InstanceMetrics instance(Kind kind, String instance) {
    String name = Redactor.redact(instance);
    List<InstanceMetrics> each = new ArrayList<>(bound.length);
    for (MetricsListener listener : bound) {
      try {
        InstanceMetrics metrics = listener.instance(kind, name);
        if (metrics != null) {
          each.add(metrics);
        }
      } catch (Throwable failure) {
        ignore(listener, kind.key() + " " + name, failure);
      }
    }
    return each.isEmpty() ? null : new Instances(each.toArray(new InstanceMetrics[0]));
  }

  @Override
  public void instanceCreated(Kind kind, String instance, boolean keyed) {
    String name = Redactor.redact(instance);
    for (MetricsListener listener : bound) {
      try {
        listener.instanceCreated(kind, name, keyed);
      } catch (Throwable failure) {
        ignore(listener, "instanceCreated " + name, failure);
      }
    }
  }

  /**
   * Errors too, as the event boundary does: a report is made between a state change and the return
   * of its ticket, so anything escaping here could strand an instance.
   */
  static void ignore(Object listener, String report, Throwable failure) {
    if (failure instanceof VirtualMachineError) {
      throw (VirtualMachineError) failure;
    }
    LoggerFactory.getLogger(MetricsListeners.class)
        .warn("metrics listener {} threw on {}; ignored", listener, report, failure);
  }

  /**
   * One report to one handle, written as a lambda that captures nothing (so it is made once, not
   * per report): the arguments travel beside it.
   */
  private interface CallReport {
    void to(CallMetrics metrics, long nanos, Kind kind, String name);
  }

  /** As {@link CallReport}, for an instance's handle. */
  private interface InstanceReport {
    void to(InstanceMetrics metrics, long nanos, Object first, Object second);
  }

  /** One call's handles, one per listener that wanted them. */
  private static final class Calls implements CallMetrics {
    private final CallMetrics[] each;

    Calls(CallMetrics[] each) {
      this.each = each;
    }

    private void report(String what, CallReport report, long nanos, Kind kind, String name) {
      for (CallMetrics metrics : each) {
        try {
          report.to(metrics, nanos, kind, name);
        } catch (Throwable failure) {
          ignore(metrics, what, failure);
        }
      }
    }

    @Override
    public void attemptSucceeded(long nanos) {
      report("attemptSucceeded", (metrics, n, k, s) -> metrics.attemptSucceeded(n), nanos, null, null);
    }

    /** Written out: {@link CallReport} carries one duration, and boxing the second would allocate. */
    @Override
    public void attemptAndCallSucceeded(long attemptNanos, long callNanos) {
      for (CallMetrics metrics : each) {
        try {
          metrics.attemptAndCallSucceeded(attemptNanos, callNanos);
        } catch (Throwable failure) {
          ignore(metrics, "attemptAndCallSucceeded", failure);
        }
      }
    }

    @Override
    public void attemptFailed(long nanos) {
      report("attemptFailed", (metrics, n, k, s) -> metrics.attemptFailed(n), nanos, null, null);
    }

    @Override
    public void succeeded(long nanos) {
      report("succeeded", (metrics, n, k, s) -> metrics.succeeded(n), nanos, null, null);
    }

    @Override
    public void failed(long nanos) {
      report("failed", (metrics, n, k, s) -> metrics.failed(n), nanos, null, null);
    }

    @Override
    public void rejected(Kind by, String instance, long nanos) {
      report("rejected", (metrics, n, k, s) -> metrics.rejected(k, s, n), nanos, by, Redactor.redact(instance));
    }

    @Override
    public void timedOut(String timeout, long nanos) {
      report("timedOut", (metrics, n, k, s) -> metrics.timedOut(s, n), nanos, null, Redactor.redact(timeout));
    }

    @Override
    public void fellBack(String fallback, long nanos) {
      report("fellBack", (metrics, n, k, s) -> metrics.fellBack(s, n), nanos, null, Redactor.redact(fallback));
    }
  }

  /** One instance's handles, one per listener that wanted them. */
  private static final class Instances implements InstanceMetrics {
    private final InstanceMetrics[] each;

    Instances(InstanceMetrics[] each) {
      this.each = each;
    }

    private void report(String what, InstanceReport report, long nanos, Object first, Object second) {
      for (InstanceMetrics metrics : each) {
        try {
          report.to(metrics, nanos, first, second);
        } catch (Throwable failure) {
          ignore(metrics, what, failure);
        }
      }
    }

    @Override
    public void rejected() {
      report("rejected", (metrics, n, a, b) -> metrics.rejected(), 0, null, null);
    }

    @Override
    public void waited(long nanos) {
      report("waited", (metrics, n, a, b) -> metrics.waited(n), nanos, null, null);
    }

    @Override
    public void transitioned(CircuitState from, CircuitState to) {
      report("transitioned", (metrics, n, a, b) -> metrics.transitioned((CircuitState) a, (CircuitState) b), 0, from, to);
    }

    /** The flag travels as a {@code Boolean}, one of the two cached ones: nothing is allocated. */
    @Override
    public void attemptFailed(boolean retried) {
      report("attemptFailed", (metrics, n, a, b) -> metrics.attemptFailed((Boolean) a), 0, retried, null);
    }

    @Override
    public void hedgeStarted() {
      report("hedgeStarted", (metrics, n, a, b) -> metrics.hedgeStarted(), 0, null, null);
    }

    @Override
    public void hedgeBudgetExhausted() {
      report("hedgeBudgetExhausted", (metrics, n, a, b) -> metrics.hedgeBudgetExhausted(), 0, null, null);
    }

    @Override
    public void hedgeWon(boolean first) {
      report("hedgeWon", (metrics, n, a, b) -> metrics.hedgeWon((Boolean) a), 0, first, null);
    }

    @Override
    public void timedOut() {
      report("timedOut", (metrics, n, a, b) -> metrics.timedOut(), 0, null, null);
    }

    @Override
    public void deadlineExceeded() {
      report("deadlineExceeded", (metrics, n, a, b) -> metrics.deadlineExceeded(), 0, null, null);
    }

    @Override
    public void injected(String named, boolean fault) {
      report("injected", (metrics, n, a, b) -> metrics.injected((String) a, (Boolean) b), 0, named, fault);
    }

    @Override
    public void staleServed() {
      report("staleServed", (metrics, n, a, b) -> metrics.staleServed(), 0, null, null);
    }

    @Override
    public void staleMissing() {
      report("staleMissing", (metrics, n, a, b) -> metrics.staleMissing(), 0, null, null);
    }
  }
}
