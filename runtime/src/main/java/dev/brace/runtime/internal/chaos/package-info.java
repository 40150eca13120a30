/**
 * Fault injection: the faults and latency configured by name ({@code BRACE_CHAOS_…}) and drawn at
 * each attempt, inside every pattern and before the delegate, so the patterns meet them as they
 * would meet a failing or slow dependency. {@link dev.brace.runtime.internal.chaos.FaultInjection}
 * decides what an attempt gets; the attempt pipeline applies it to a synchronous attempt ({@link
 * dev.brace.runtime.internal.chaos.InjectedAttempt}) or an asynchronous one ({@link
 * dev.brace.runtime.internal.chaos.DelayedCall}).
 */
package dev.brace.runtime.internal.chaos;
