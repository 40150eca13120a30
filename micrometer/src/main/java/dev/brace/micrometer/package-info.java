/**
 * Micrometer metrics for Brace: {@link dev.brace.micrometer.BraceMetrics#bind} turns a registry's
 * events into counters and its instances' state into gauges.
 */
package dev.brace.micrometer;
