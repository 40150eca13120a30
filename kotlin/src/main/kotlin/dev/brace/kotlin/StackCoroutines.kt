@file:JvmName("StackCoroutines")

package dev.brace.kotlin

import dev.brace.runtime.Stack
import dev.brace.runtime.support.Arguments
import java.util.function.Supplier
import kotlin.coroutines.Continuation
import kotlin.coroutines.intrinsics.startCoroutineUninterceptedOrReturn
import kotlinx.coroutines.flow.Flow

/**
 * Runs [block] through every part of the stack as a `suspend` call: what a generated wrapper does
 * for a `suspend` method. Each attempt runs [block] again, in the caller's coroutine context; waits
 * suspend; a timeout cancels the attempt; the caller's cancellation stops the call and gives back
 * what it holds, and the stack's fallback answers with its value.
 *
 * ```kotlin
 * val item = stack.suspending { client.item(id) }
 * ```
 *
 * @param key the key of this call, for every keyed part; null only when no part is keyed
 * @param block the protected call
 * @return its value, or the fallback's
 */
public suspend fun <T> Stack<T>.suspending(key: String? = null, block: suspend () -> T): T =
    SuspendCall.call(resilientCall().resolved(), SuspendBlock(block), key, null, null, null, 0L, 0L)

/**
 * A `Flow` each collection of which is one call through the stack's breaker, limiter, bulkhead,
 * timeout (to the first element), retry and fallback (before the first element; the stack's
 * fallback answers with its one value). A stack with a hedge or stale answers fails the collection
 * with an `IllegalStateException`.
 *
 * ```kotlin
 * val prices: Flow<Price> = stack.flow { client.prices(symbol) }
 * ```
 *
 * @param key the key of this call, for every keyed part; null only when no part is keyed
 * @param block makes the flow one attempt collects; called again for each attempt
 * @return the protected flow
 */
public fun <T> Stack<T>.flow(key: String? = null, block: () -> Flow<T>): Flow<T> =
    CoroutineCalls.protectedFlow(resilientCall(), Supplier(block), Arguments().set(key, null, null, null, 0L, 0L))

/** A stack's `suspend` call as its target: each attempt asks it for the call ([get]) and makes it ([invoke]). */
private class SuspendBlock<T>(private val block: suspend () -> T) : Supplier<SuspendInvocation>, SuspendInvocation {
    override fun get(): SuspendInvocation = this

    override fun invoke(continuation: Continuation<Any?>): Any? = block.startCoroutineUninterceptedOrReturn(continuation)
}
