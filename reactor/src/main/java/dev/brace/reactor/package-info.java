/**
 * Brace for Reactor: methods returning {@code Mono} or {@code Flux} protected lazily, one call per
 * subscription, without blocking a thread. {@link dev.brace.reactor.ReactorCalls} is what the
 * wrappers {@code brace-processor} generates call; {@link dev.brace.reactor.ReactiveStack} gives
 * a {@code Stack} the same two forms for hand-written code.
 */
package dev.brace.reactor;
