package dev.brace.kotlin

import dev.brace.runtime.spi.driver.ResolvedCall
import dev.brace.runtime.support.Arguments
import dev.brace.runtime.support.StageAdapter
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionStage
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.cancellation.CancellationException
import kotlin.coroutines.coroutineContext
import kotlin.coroutines.intrinsics.suspendCoroutineUninterceptedOrReturn
import kotlinx.coroutines.future.await

/**
 * One call of a `suspend` method: an asynchronous call whose attempts are calls of the delegate's
 * `suspend` function, so every pattern is the one `CompletionStage` calls take (retry, hedge, stale
 * answers, breaker, limiter, bulkhead, timeout, fallback), decided by the runtime, and nothing
 * blocks a thread: waits are tasks on the registry's scheduler while the caller's coroutine is
 * suspended.
 *
 * The caller's cancellation cancels the call's future, which stops what is in flight (the
 * attempt's coroutine, a backoff, a wait for a permit) and gives back what it holds without an
 * outcome; the `CancellationException` is then rethrown. A `CancellationException` the delegate
 * itself ends with is never a failure: it ends the call the same way and is rethrown.
 */
internal class SuspendCall(
    private val resolved: ResolvedCall,
    /** The caller's coroutine context: each attempt runs in it. */
    val callerContext: CoroutineContext,
) : StageAdapter {
    /** The caller's thread while the call starts there: an attempt made then runs on it at once. */
    @Volatile private var starting: Thread? = Thread.currentThread()
    @Volatile private var future: CompletableFuture<Any?>? = null
    @Volatile private var insideCancellation: CancellationException? = null

    private suspend fun run(target: Any, a: Any?, b: Any?, c: Any?, d: Any?, x: Long, y: Long): Any? {
        val started = try {
            resolved.callAsync<Any?>(this, target, a, b, c, d, x, y)
        } finally {
            starting = null
        }
        if (started.isDone && !started.isCompletedExceptionally) {
            // The common case, answered while the caller's thread started it: no suspension.
            return started.getNow(null)
        }
        future = started
        if (insideCancellation != null) {
            started.cancel(false)
        }
        try {
            // Suspends the caller; its cancellation cancels the call's future.
            return started.await()
        } catch (cancelled: CancellationException) {
            throw insideCancellation ?: cancelled
        }
    }

    /** The delegate ended an attempt with its own cancellation: the call stops, without an outcome. */
    fun cancelledInside(cancellation: CancellationException) {
        insideCancellation = cancellation
        future?.cancel(false)
    }

    override fun attempt(returned: Any?): CompletionStage<*> = start(
        returned as? SuspendInvocation
            ?: throw IllegalStateException("${resolved.callName()} made no suspend call for its attempt, but $returned"),
    )

    override fun answer(answered: Any?): CompletionStage<*> = when (answered) {
        is SuspendInvocation -> start(answered)
        is CompletionStage<*> -> answered
        else -> CompletableFuture.completedFuture(answered)
    }

    /** Starts a suspend call in the context this thread holds now: the caller's, with the attempt's deadline. */
    private fun start(invocation: SuspendInvocation): CompletionStage<*> {
        val attempt = AttemptCoroutine(this, resolved.captureContext())
        return if (Thread.currentThread() === starting) attempt.startHere(invocation) else attempt.startDispatched(invocation)
    }

    internal companion object {
        /**
         * Runs one call; a call whose patterns are all switched off calls the delegate directly,
         * with the caller's own continuation.
         */
        @Suppress("UNCHECKED_CAST")
        suspend fun <T> call(resolved: ResolvedCall, target: Any, a: Any?, b: Any?, c: Any?, d: Any?, x: Long, y: Long): T {
            if (resolved.passesThrough()) {
                val invocation = resolved.invoke(target, Arguments().set(a, b, c, d, x, y)) as SuspendInvocation
                return suspendCoroutineUninterceptedOrReturn<Any?> { continuation -> invocation.invoke(continuation) } as T
            }
            return SuspendCall(resolved, coroutineContext).run(target, a, b, c, d, x, y) as T
        }
    }
}
