/**
 * One call's walk through its patterns in the one order (fallback, retry, breaker, limiter,
 * bulkhead, timeout, call): {@link dev.brace.runtime.internal.sequence.CallPolicies} holds the
 * steps and asks the policies; {@link dev.brace.runtime.internal.sequence.SyncDriver} and {@link
 * dev.brace.runtime.internal.sequence.AsyncDriver} walk them, sleeping or scheduling the waits,
 * and decide nothing themselves.
 */
package dev.brace.runtime.internal.sequence;
