package dev.brace.runtime;

import dev.brace.runtime.config.Kind;
import dev.brace.runtime.metrics.CallMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import dev.brace.runtime.metrics.MetricsListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A metrics listener that writes down every report as a line, {@code <who> <what> [<values>]}
 * ({@code "Api.call succeeded 3000000"}, {@code "circuitbreaker api transitioned CLOSED OPEN"}),
 * and every handle it was asked for, so tests can read what the typed path reported.
 */
public final class RecordedMetrics implements MetricsListener {
  /** Every line, in order. */
  public final List<String> lines = new CopyOnWriteArrayList<>();
  /** Every handle asked for: {@code "call Api.call"}, {@code "circuitbreaker api"}. */
  public final List<String> resolved = new CopyOnWriteArrayList<>();

  /** @return the lines that start with {@code prefix} */
  public List<String> starting(String prefix) {
    return lines.stream().filter(line -> line.startsWith(prefix)).collect(Collectors.toList());
  }

  @Override
  public CallMetrics call(String callName) {
    resolved.add("call " + callName);
    return new CallMetrics() {
      @Override
      public void attemptSucceeded(long nanos) {
        lines.add(callName + " attemptSucceeded " + nanos);
      }

      @Override
      public void attemptFailed(long nanos) {
        lines.add(callName + " attemptFailed " + nanos);
      }

      @Override
      public void succeeded(long nanos) {
        lines.add(callName + " succeeded " + nanos);
      }

      @Override
      public void failed(long nanos) {
        lines.add(callName + " failed " + nanos);
      }

      @Override
      public void rejected(Kind by, String instance, long nanos) {
        lines.add(callName + " rejected " + by.key() + " " + instance + " " + nanos);
      }

      @Override
      public void timedOut(String timeout, long nanos) {
        lines.add(callName + " timedOut " + timeout + " " + nanos);
      }

      @Override
      public void fellBack(String fallback, long nanos) {
        lines.add(callName + " fellBack " + fallback + " " + nanos);
      }
    };
  }

  @Override
  public InstanceMetrics instance(Kind kind, String name) {
    String who = kind.key() + " " + name;
    resolved.add(who);
    return new InstanceMetrics() {
      @Override
      public void rejected() {
        lines.add(who + " rejected");
      }

      @Override
      public void waited(long nanos) {
        lines.add(who + " waited " + nanos);
      }

      @Override
      public void transitioned(CircuitState from, CircuitState to) {
        lines.add(who + " transitioned " + from + " " + to);
      }

      @Override
      public void attemptFailed(boolean retried) {
        lines.add(who + " attemptFailed " + (retried ? "retried" : "exhausted"));
      }

      @Override
      public void hedgeStarted() {
        lines.add(who + " hedgeStarted");
      }

      @Override
      public void hedgeBudgetExhausted() {
        lines.add(who + " hedgeBudgetExhausted");
      }

      @Override
      public void hedgeWon(boolean first) {
        lines.add(who + " hedgeWon " + (first ? "first" : "hedge"));
      }

      @Override
      public void timedOut() {
        lines.add(who + " timedOut");
      }

      @Override
      public void deadlineExceeded() {
        lines.add(who + " deadlineExceeded");
      }

      @Override
      public void injected(String named, boolean fault) {
        lines.add(who + " injected " + named + " " + (fault ? "fault" : "latency"));
      }

      @Override
      public void staleServed() {
        lines.add(who + " staleServed");
      }

      @Override
      public void staleMissing() {
        lines.add(who + " staleMissing");
      }
    };
  }

  @Override
  public void instanceCreated(Kind kind, String name, boolean keyed) {
    lines.add(kind.key() + " " + name + " created" + (keyed ? " keyed" : ""));
  }
}
