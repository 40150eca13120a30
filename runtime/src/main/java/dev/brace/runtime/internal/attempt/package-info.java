/**
 * One attempt's way through the breaker, limiter, bulkhead and timeout: admission, timing, outcome
 * and release, the same for every driver; the keyed families a call's breaker and limiter come from.
 */
package dev.brace.runtime.internal.attempt;
