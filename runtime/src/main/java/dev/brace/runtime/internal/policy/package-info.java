/**
 * Each pattern's decisions and state, independent of how calls are driven: the retry's eligibility
 * and backoff, the circuit breaker's states and windows, the token bucket, the bulkhead's permits,
 * the timeout's deadline, the fallback's filter and the shared retry budget. Instances are
 * thread-safe and built from immutable configs; time comes from the registry's clock.
 */
package dev.brace.runtime.internal.policy;
