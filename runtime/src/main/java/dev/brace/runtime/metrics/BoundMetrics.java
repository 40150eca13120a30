package dev.brace.runtime.metrics;

import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.spi.EventSink;
import java.util.Objects;

/**
 * The handle one call or one instance reports its metrics to, asked of the {@link MetricsListener}
 * bound now and kept until the binding changes: {@link #get} is a field comparison, not a lookup,
 * and null (one volatile read) while nothing is bound. Held by whoever reports: a call's sequence
 * and pipeline, each breaker, limiter, bulkhead and call-scoped policy. An instance a backend made
 * on another event sink than the registry's boundary (a test's) has nothing bound, ever.
 *
 * @param <M> {@link CallMetrics} or {@link InstanceMetrics}
 */
public final class BoundMetrics<M> {
  /** The registry's boundary, which knows what is bound; null for any other sink. */
  private final EventBus events;
  /** Null for a call's handle. */
  private final Kind kind;
  private final String name;
  private volatile Resolved<M> resolved;

  private BoundMetrics(EventSink events, Kind kind, String name) {
    this.events = Objects.requireNonNull(events, "events") instanceof EventBus bus ? bus : null;
    this.kind = kind;
    this.name = Objects.requireNonNull(name, "name");
  }

  /**
   * @param events the registry's event boundary, which knows what is bound
   * @param callName the call
   * @return the call's handle
   */
  public static BoundMetrics<CallMetrics> ofCall(EventSink events, String callName) {
    return new BoundMetrics<>(events, null, callName);
  }

  /**
   * @param events the registry's event boundary, which knows what is bound
   * @param kind the instance's kind
   * @param name its name ({@code name[key]} for a keyed family's member)
   * @return the instance's handle
   */
  public static BoundMetrics<InstanceMetrics> ofInstance(EventSink events, Kind kind, String name) {
    return new BoundMetrics<>(events, Objects.requireNonNull(kind, "kind"), name);
  }

  /** @return what to report to, or null when nothing is bound (or the binding ignores this call or instance) */
  public M get() {
    MetricsListener bound = events == null ? null : events.metrics();
    if (bound == null) {
      return null;
    }
    Resolved<M> known = resolved;
    return known != null && known.listener == bound ? known.metrics : resolve(bound);
  }

  /** Two threads may both resolve after a change: the listener answers both alike, so either may stay. */
  @SuppressWarnings("unchecked")
  private M resolve(MetricsListener bound) {
    M metrics = kind == null ? (M) bound.call(name) : (M) bound.instance(kind, name);
    resolved = new Resolved<>(bound, metrics);
    return metrics;
  }

  private record Resolved<M>(MetricsListener listener, M metrics) {}
}
