/**
 * The typed metrics path, beside the event stream: a {@link dev.brace.runtime.metrics.MetricsListener}
 * bound with {@link dev.brace.runtime.Registry#bindMetrics} is fed with primitive arguments through
 * handles ({@link dev.brace.runtime.metrics.CallMetrics}, {@link
 * dev.brace.runtime.metrics.InstanceMetrics}) that each call and instance asks for once per binding
 * and keeps in a {@link dev.brace.runtime.metrics.BoundMetrics}, so a call with metrics bound builds
 * no event. {@code brace-micrometer} implements the listener; a state backend's instances report
 * through the same handles (the breaker's and limiter's events in {@code dev.brace.runtime.spi}
 * do).
 */
package dev.brace.runtime.metrics;
