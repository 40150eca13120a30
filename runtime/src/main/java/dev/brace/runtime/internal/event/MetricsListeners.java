package dev.brace.runtime.internal.event;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.config.Kind;
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

  /** One call's handles, one per listener that wanted them. */
  private static final class Calls implements CallMetrics {
    private final CallMetrics[] each;

    Calls(CallMetrics[] each) {
      this.each = each;
    }

    @Override
    public void attemptSucceeded(long nanos) {
      for (CallMetrics metrics : each) {
        try {
          metrics.attemptSucceeded(nanos);
        } catch (Throwable failure) {
          ignore(metrics, "attemptSucceeded", failure);
        }
      }
    }

    @Override
    public void attemptFailed(long nanos) {
      for (CallMetrics metrics : each) {
        try {
          metrics.attemptFailed(nanos);
        } catch (Throwable failure) {
          ignore(metrics, "attemptFailed", failure);
        }
      }
    }

    @Override
    public void succeeded(long nanos) {
      for (CallMetrics metrics : each) {
        try {
          metrics.succeeded(nanos);
        } catch (Throwable failure) {
          ignore(metrics, "succeeded", failure);
        }
      }
    }

    @Override
    public void failed(long nanos) {
      for (CallMetrics metrics : each) {
        try {
          metrics.failed(nanos);
        } catch (Throwable failure) {
          ignore(metrics, "failed", failure);
        }
      }
    }

    @Override
    public void rejected(Kind by, String instance, long nanos) {
      String name = Redactor.redact(instance);
      for (CallMetrics metrics : each) {
        try {
          metrics.rejected(by, name, nanos);
        } catch (Throwable failure) {
          ignore(metrics, "rejected", failure);
        }
      }
    }

    @Override
    public void timedOut(String timeout, long nanos) {
      String name = Redactor.redact(timeout);
      for (CallMetrics metrics : each) {
        try {
          metrics.timedOut(name, nanos);
        } catch (Throwable failure) {
          ignore(metrics, "timedOut", failure);
        }
      }
    }

    @Override
    public void fellBack(String fallback, long nanos) {
      String name = Redactor.redact(fallback);
      for (CallMetrics metrics : each) {
        try {
          metrics.fellBack(name, nanos);
        } catch (Throwable failure) {
          ignore(metrics, "fellBack", failure);
        }
      }
    }
  }

  /** One instance's handles, one per listener that wanted them. */
  private static final class Instances implements InstanceMetrics {
    private final InstanceMetrics[] each;

    Instances(InstanceMetrics[] each) {
      this.each = each;
    }

    @Override
    public void rejected() {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.rejected();
        } catch (Throwable failure) {
          ignore(metrics, "rejected", failure);
        }
      }
    }

    @Override
    public void waited(long nanos) {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.waited(nanos);
        } catch (Throwable failure) {
          ignore(metrics, "waited", failure);
        }
      }
    }

    @Override
    public void transitioned(CircuitState from, CircuitState to) {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.transitioned(from, to);
        } catch (Throwable failure) {
          ignore(metrics, "transitioned", failure);
        }
      }
    }

    @Override
    public void attemptFailed(boolean retried) {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.attemptFailed(retried);
        } catch (Throwable failure) {
          ignore(metrics, "attemptFailed", failure);
        }
      }
    }

    @Override
    public void hedgeStarted() {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.hedgeStarted();
        } catch (Throwable failure) {
          ignore(metrics, "hedgeStarted", failure);
        }
      }
    }

    @Override
    public void hedgeBudgetExhausted() {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.hedgeBudgetExhausted();
        } catch (Throwable failure) {
          ignore(metrics, "hedgeBudgetExhausted", failure);
        }
      }
    }

    @Override
    public void hedgeWon(boolean first) {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.hedgeWon(first);
        } catch (Throwable failure) {
          ignore(metrics, "hedgeWon", failure);
        }
      }
    }

    @Override
    public void timedOut() {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.timedOut();
        } catch (Throwable failure) {
          ignore(metrics, "timedOut", failure);
        }
      }
    }

    @Override
    public void deadlineExceeded() {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.deadlineExceeded();
        } catch (Throwable failure) {
          ignore(metrics, "deadlineExceeded", failure);
        }
      }
    }

    @Override
    public void staleServed() {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.staleServed();
        } catch (Throwable failure) {
          ignore(metrics, "staleServed", failure);
        }
      }
    }

    @Override
    public void staleMissing() {
      for (InstanceMetrics metrics : each) {
        try {
          metrics.staleMissing();
        } catch (Throwable failure) {
          ignore(metrics, "staleMissing", failure);
        }
      }
    }
  }
}
