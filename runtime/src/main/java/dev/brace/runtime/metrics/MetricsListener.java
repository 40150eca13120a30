package dev.brace.runtime.metrics;

import dev.brace.runtime.config.Kind;

/**
 * The typed path a metrics binder ({@code brace-micrometer}) is fed by, beside the event stream:
 * what meters need, with primitive arguments, so that a call with metrics bound builds no
 * {@link dev.brace.runtime.Event}. A call or an instance asks for its handle once per binding
 * ({@link #call}, {@link #instance}) and keeps it; each report is then a method call on that
 * handle. Bound with {@link dev.brace.runtime.Registry#bindMetrics}.
 *
 * <p>Published so that a binder outside the runtime implements a type the API names, and released
 * with the runtime at one version: a new meter adds its method (one per meter, named for what
 * happened) to {@link CallMetrics} or {@link InstanceMetrics}, with a default that ignores it where
 * an existing binder need not see it. Names reach a listener redacted, as events' do. Every method
 * is called on the thread that did the work, in the middle of a call: it must not block; one that
 * throws is logged and ignored.
 */
public interface MetricsListener {

  /**
   * Called once per call name and binding, on the first report after either appears.
   *
   * @param callName {@code Interface.method}, or a stack's name
   * @return what that call's outcomes are reported to; null to ignore them
   */
  CallMetrics call(String callName);

  /**
   * Called once per instance and binding, on its first report after either appears.
   *
   * @param kind the instance's kind: a breaker, limiter, bulkhead, retry, hedge, timeout,
   *     stale-if-error, a call's deadline or fault injection (by the name its settings have)
   * @param name its name; a keyed family's member is {@code name[key]}; a call's deadline is the call's
   * @return what that instance's events are reported to; null to ignore them
   */
  InstanceMetrics instance(Kind kind, String name);

  /**
   * A shared instance now exists (a keyed family is reported once, as the family).
   *
   * @param kind a breaker, limiter, bulkhead or retry budget
   * @param name its name
   * @param keyed whether it is a family with one member per key
   */
  void instanceCreated(Kind kind, String name, boolean keyed);
}
