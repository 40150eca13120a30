package dev.brace.kotlin

import dev.brace.runtime.spi.driver.CapturedContext
import java.util.concurrent.CompletableFuture
import kotlin.coroutines.Continuation
import kotlin.coroutines.ContinuationInterceptor
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.intrinsics.COROUTINE_SUSPENDED
import kotlin.coroutines.intrinsics.createCoroutineUnintercepted
import kotlin.coroutines.intrinsics.intercepted
import kotlin.coroutines.intrinsics.suspendCoroutineUninterceptedOrReturn
import kotlinx.coroutines.CompletableJob
import kotlinx.coroutines.Job

/**
 * One attempt of a `suspend` call (or its `suspend` fallback), as the asynchronous driver follows
 * it: a future the delegate's function completes through this continuation. Cancelling the future
 * (a timeout, the caller's cancellation, a hedge that lost) cancels the attempt's [Job], so the
 * delegate's suspension points end with a `CancellationException` and nothing is left running.
 *
 * Its coroutine context is the caller's, with a [Job] of its own in place of the caller's (the
 * call's future, not the caller's job, decides when the attempt stops) and Brace's context for
 * the attempt ([CallerContextElement]). It is made only when the delegate asks for it: a function
 * that returns without suspending never reads it, and costs no job.
 */
internal class AttemptCoroutine(
    private val call: SuspendCall,
    private val captured: CapturedContext,
) : CompletableFuture<Any?>(), Continuation<Any?> {
    @Volatile private var job: CompletableJob? = null
    private var madeContext: CoroutineContext? = null

    override val context: CoroutineContext
        get() {
            // Read first by the thread that calls the delegate, before anything else can see this.
            madeContext?.let { return it }
            val own = Job()
            val made = call.callerContext.minusKey(Job) + own + CallerContextElement(captured)
            madeContext = made
            job = own
            if (isCancelled) {
                own.cancel()
            }
            return made
        }

    /** Calls the function now, on this thread: the caller's, whose context it already holds. */
    fun startHere(invocation: SuspendInvocation): AttemptCoroutine {
        val returned = try {
            invocation.invoke(this)
        } catch (thrown: Throwable) {
            resumeWith(Result.failure(thrown))
            return this
        }
        if (returned !== COROUTINE_SUSPENDED) {
            resumeWith(Result.success(returned))
        }
        return this
    }

    /**
     * Calls the function on the caller's dispatcher (a retry after a backoff or a hedge starts on
     * the registry's scheduler): the attempt runs where the caller's coroutine would, with its
     * thread-context elements installed, as any resumption of it.
     */
    fun startDispatched(invocation: SuspendInvocation): AttemptCoroutine {
        if (call.callerContext[ContinuationInterceptor] == null) {
            return startHere(invocation)
        }
        val body: suspend () -> Any? = { suspendCoroutineUninterceptedOrReturn { continuation -> invocation.invoke(continuation) } }
        try {
            body.createCoroutineUnintercepted(this).intercepted().resumeWith(Result.success(Unit))
        } catch (refused: Throwable) {
            // A dispatcher that refuses the task (closed) fails the attempt with its reason.
            completeExceptionally(refused)
        }
        return this
    }

    override fun resumeWith(result: Result<Any?>) {
        job?.complete()
        val failure = result.exceptionOrNull()
        when {
            failure == null -> complete(result.getOrNull())
            failure is kotlin.coroutines.cancellation.CancellationException ->
                // Ours when this future was cancelled first; otherwise the delegate's own, which is
                // never a failure: it ends the whole call without an outcome.
                if (!isCancelled) call.cancelledInside(failure)
            else -> completeExceptionally(failure)
        }
    }

    override fun cancel(mayInterruptIfRunning: Boolean): Boolean {
        val cancelled = super.cancel(mayInterruptIfRunning)
        job?.cancel()
        return cancelled
    }
}
