/**
 * Micrometer metrics for Brace: {@link dev.brace.micrometer.BraceMetrics#bind} feeds counters and
 * timers from the registry's typed metrics path (no event per call) and gauges its instances'
 * state.
 */
package dev.brace.micrometer;
