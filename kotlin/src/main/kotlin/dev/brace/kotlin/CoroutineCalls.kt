package dev.brace.kotlin

import dev.brace.runtime.support.Arguments
import dev.brace.runtime.support.ResilientCall
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow

/**
 * What a generated method that is a Kotlin `suspend` function, or that returns a `Flow`, is made
 * of, one statement each:
 *
 * ```java
 * public Object item(String id, Continuation<? super String> $completion) {
 *   return CoroutineCalls.suspending(this.item, this.delegate, id, null, null, null, 0L, 0L, $completion);
 * }
 * public Flow<String> items() {
 *   return CoroutineCalls.flow(this.items, this.delegate, null, null, null, null, 0L, 0L);
 * }
 * ```
 *
 * - `suspend`: every pattern, as for a `CompletionStage`. Each attempt calls the delegate's
 *   `suspend` function again ([attempt]) in the caller's coroutine context, with Brace's context and
 *   the attempt's deadline on every thread it resumes on. Waits suspend; a timeout cancels the
 *   attempt's coroutine; the caller's cancellation stops the call and gives back what it holds.
 * - `Flow`: one call per collection, as for a `Flux`: breaker, limiter and bulkhead around the
 *   whole collection, the timeout to the first element, retry and fallback only before it.
 *
 * Its presence on the class path is what lets `brace-processor` accept such methods.
 */
public object CoroutineCalls {
    /**
     * Runs one call of a `suspend` method through `call`'s patterns.
     *
     * @param call the method's resolved call
     * @param target the delegate
     * @param a the first reference argument (see [Arguments] for the slots), or null
     * @param b the second, or null
     * @param c the third, or null
     * @param d the fourth, or null
     * @param x the first primitive argument widened to a `Long`, or 0
     * @param y the second, or 0
     * @return the call's value, or the fallback's
     */
    @JvmStatic
    public suspend fun <T> suspending(call: ResilientCall, target: Any, a: Any?, b: Any?, c: Any?, d: Any?, x: Long, y: Long): T =
        SuspendCall.call(call.resolved(), target, a, b, c, d, x, y)

    /**
     * One call of a `suspend` function, for the call's driver to make with a continuation of each
     * attempt's own: what a generated invoker returns for a `suspend` method (and a `suspend`
     * fallback), `CoroutineCalls.attempt(continuation -> delegate.item((String) a, continuation))`.
     *
     * @param invocation the call
     * @return it, typed for the driver
     */
    @JvmStatic
    public fun attempt(invocation: SuspendInvocation): SuspendInvocation = invocation

    /**
     * A `Flow` each collection of which is one call through `call`'s patterns.
     *
     * @param call the method's resolved call
     * @param target the delegate
     * @param a the first reference argument, or null
     * @param b the second, or null
     * @param c the third, or null
     * @param d the fourth, or null
     * @param x the first primitive argument widened to a `Long`, or 0
     * @param y the second, or 0
     * @return the flow; every failure, refusals included, is thrown to its collector
     */
    @JvmStatic
    public fun <T> flow(call: ResilientCall, target: Any, a: Any?, b: Any?, c: Any?, d: Any?, x: Long, y: Long): Flow<T> {
        // Read by every collection's attempts, never written after this.
        val arguments = Arguments().set(a, b, c, d, x, y)
        return protectedFlow(call, target, arguments)
    }

    /** One call per collection, on the policies the call has at that moment. */
    @Suppress("UNCHECKED_CAST")
    internal fun <T> protectedFlow(call: ResilientCall, target: Any, arguments: Arguments): Flow<T> = flow {
        val resolved = call.resolved()
        if (resolved.passesThrough()) {
            val direct = resolved.invoke(target, arguments)
                ?: throw NullPointerException("${resolved.callName()} returned null instead of a Flow")
            (direct as Flow<T>).collect { emit(it) }
            return@flow
        }
        check(!resolved.hedged() && !resolved.remembersAnswers()) {
            // The processor refuses both on a Flow method; a Stack can hold them, for its other forms.
            "${resolved.callName()} has ${if (resolved.hedged()) "a hedge" else "stale answers"}, which a Flow cannot" +
                " have: a stream has no one answer to hedge or remember; use suspending { flow.toList() } to treat" +
                " the whole stream as one"
        }
        FlowCall(resolved, target, arguments, this).run()
    }
}
