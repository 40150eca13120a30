package dev.brace.kotlin

import dev.brace.runtime.config.ExceptionFilter
import dev.brace.runtime.spi.driver.Admission
import dev.brace.runtime.spi.driver.CallExecution
import dev.brace.runtime.spi.driver.CapturedContext
import dev.brace.runtime.spi.driver.DelegateCall
import dev.brace.runtime.spi.driver.ResolvedCall
import dev.brace.runtime.support.Arguments
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionStage
import java.util.concurrent.ScheduledFuture
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.cancellation.CancellationException
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.FlowCollector
import kotlinx.coroutines.flow.flowOn
import kotlinx.coroutines.future.await
import kotlinx.coroutines.isActive
import kotlinx.coroutines.job
import kotlinx.coroutines.suspendCancellableCoroutine

/**
 * One collection of a wrapper's `Flow`: one call, walked through the runtime's driver SPI (a
 * [CallExecution], which decides everything) by suspending. The rules are a `Flux`'s:
 *
 * - breaker, limiter and bulkhead hold the attempt from its admission to the upstream flow's
 *   completion, its failure or the collector stopping (which gives everything back, no outcome);
 * - the attempt's bound (its timeout, or what is left of the caller's deadline) runs to the first
 *   element;
 * - once an element is emitted it cannot be taken back: a failure after it ends the call as it is
 *   (the breaker counts it), and only a failure before it is retried or answered by the fallback.
 *
 * Waits (a limiter's token, a bulkhead's permit, a backoff) suspend on the registry's scheduler. A
 * `CancellationException` (the collector's coroutine cancelled, the collector stopping early, the
 * upstream's own) is never an outcome: what the attempt holds goes back and it is rethrown.
 * Failures the collector's own code throws from `emit` pass through untouched.
 */
internal class FlowCall<T>(
    private val resolved: ResolvedCall,
    private val target: Any,
    private val arguments: Arguments,
    private val downstream: FlowCollector<T>,
) {
    private lateinit var execution: CallExecution
    /**
     * Whether a step runs after a suspension or a collection, on a thread that may not hold the
     * caller's context, or that still holds what the upstream's collection installed: a resumption
     * may continue on the thread the upstream's context was installed on before it is taken off.
     */
    private var resumed = false

    // The current attempt's, written and read by its collection alone.
    private val state = AtomicInteger(RUNNING)
    private var emitted = false
    private var downstreamFailure: Throwable? = null

    suspend fun run() {
        execution = resolved.begin(arguments)
        while (true) {
            execution.startAttempt()
            val failure = attempt() ?: return
            val delay = step { execution.retryDelay(failure) }
            if (delay == CallExecution.NO_RETRY) {
                answer(failure)
                return
            }
            if (delay > 0) {
                sleep(delay)
            }
        }
    }

    /** @return the failure to decide on, or null when the call ended (completed, or failed after an element) */
    private suspend fun attempt(): Throwable? {
        while (true) {
            when (val admission = step { execution.admit() }) {
                is Admission.Admitted -> break
                is Admission.Refused -> return admission.refusal()
                is Admission.Wait -> try {
                    sleep(admission.nanos())
                } catch (stopped: Throwable) {
                    // Cancelled, or the scheduler refused the wait: what admission took goes back.
                    step { execution.abandon() }
                    if (stopped is CancellationException) throw stopped
                    return stopped
                }
            }
        }
        return collectAttempt()
    }

    private suspend fun collectAttempt(): Throwable? {
        state.set(RUNNING)
        emitted = false
        downstreamFailure = null
        val bound = execution.attemptBoundNanos()
        val outcome: Throwable? = try {
            if (bound < 0) {
                collectUpstream(null, inheritsContext = !resumed)
            } else {
                // A scope of the attempt's own, which its bound cancels if no element came first.
                coroutineScope {
                    val attemptJob = coroutineContext.job
                    val expiry = execution.scheduler().schedule(
                        { if (state.compareAndSet(RUNNING, EXPIRED)) attemptJob.cancel(AttemptExpired()) },
                        bound, TimeUnit.NANOSECONDS,
                    )
                    try {
                        collectUpstream(expiry, inheritsContext = false)
                    } finally {
                        expiry.cancel(false)
                    }
                }
            }
            null
        } catch (thrown: Throwable) {
            thrown
        }
        resumed = true
        if (outcome == null) {
            return completed(emitted)
        }
        val fromDownstream = downstreamFailure
        if (fromDownstream != null || !currentCoroutineContext().isActive) {
            // The collector stopped or failed, or its coroutine was cancelled: no outcome. (The
            // collector's own exception is rethrown as itself, not as the copy a scope may make.)
            step { execution.abandon() }
            throw fromDownstream ?: outcome
        }
        if (state.get() == EXPIRED && outcome is CancellationException) {
            return step { execution.timedOut() }
        }
        if (outcome is CancellationException) {
            // The upstream's own cancellation is never a failure.
            step { execution.abandon() }
            throw outcome
        }
        val failure = step { execution.failed(ExceptionFilter.unwrap(outcome)) }
        if (!emitted) {
            return failure
        }
        // Elements are out: the failure ends the call as it is, the earlier attempts' attached.
        step { execution.ended(failure) }
        throw failure
    }

    /**
     * Launches the attempt and passes its elements on. Through the execution, which makes the
     * attempt's bound the current deadline and injects the faults set for the call; the flow is
     * collected in the context the delegate's method ran in, since a cold flow does its work when
     * collected.
     *
     * @param inheritsContext whether the collector's thread holds that context already: the
     *     caller's own thread, before any wait, for an attempt with no bound to publish
     */
    private suspend fun collectUpstream(expiry: ScheduledFuture<*>?, inheritsContext: Boolean) {
        val launch = AttemptLaunch()
        val launched = upstream(step { execution.launch(launch) })
        val upstream = if (inheritsContext) launched else inContext(launched, launch.context)
        upstream.collect { element ->
            if (!emitted) {
                if (!state.compareAndSet(RUNNING, STREAMING)) {
                    // The bound passed as the first element came: the attempt is over, whether or
                    // not the timer's cancel has reached this coroutine yet.
                    throw AttemptExpired()
                }
                expiry?.cancel(false)
                emitted = true
            }
            passOn(element)
        }
    }

    /** Emits to the collector, remembering what its own code throws: that is nobody's failure. */
    private suspend fun passOn(element: T) {
        try {
            downstream.emit(element)
        } catch (thrown: Throwable) {
            downstreamFailure = thrown
            throw thrown
        }
    }

    private fun completed(emitted: Boolean): Throwable? {
        try {
            step { execution.succeeded(null) }
        } catch (predicateFailure: RuntimeException) {
            // The breaker's result predicate threw: as for every form, the attempt failed with it.
            if (!emitted) return predicateFailure
            step { execution.ended(predicateFailure) }
            throw predicateFailure
        }
        step { execution.ended(null) }
        return null
    }

    /** Ends the call with a failure, answered by the fallback's flow when the fallback answers it. */
    private suspend fun answer(failure: Throwable) {
        step { execution.ended(failure) }
        val answering = step { execution.fallbackAnswering(failure) } ?: throw failure
        val answer: Flow<T> = try {
            step {
                inContext(flowOf(execution.callFallback(target, arguments, answering), "the fallback of ${resolved.callName()}"),
                    resolved.captureContext())
            }
        } catch (fallbackFailure: Throwable) {
            throw step { execution.fallbackFailed(ExceptionFilter.unwrap(fallbackFailure), failure) }
        }
        downstreamFailure = null
        try {
            answer.collect { element -> passOn(element) }
        } catch (thrown: Throwable) {
            downstreamFailure?.let { throw it }
            if (thrown is CancellationException) throw thrown
            throw step { execution.fallbackFailed(thrown, failure) }
        }
    }

    /**
     * One attempt's call of the delegate's method, which remembers the context it ran in: the
     * caller's, with the attempt's bound as the current deadline. Detached (after a latency fault
     * injection adds), it answers with a future of the flow, as whoever stands in for it expects.
     */
    private inner class AttemptLaunch : DelegateCall {
        @Volatile var context: CapturedContext? = null

        override fun call(): Any? {
            context = resolved.captureContext()
            return resolved.invoke(target, arguments)
        }

        override fun detached(): DelegateCall = DelegateCall { CompletableFuture.completedFuture(call()) }
    }

    /**
     * @return [flow], collected with [context] installed on the collecting thread: the caller's MDC,
     *     tracing and deadline where the flow does its work. The collector's own context is untouched.
     */
    private fun inContext(flow: Flow<T>, context: CapturedContext?): Flow<T> =
        if (context == null) flow else flow.flowOn(CallerContextElement(context))

    /** What the execution's launch gave: the delegate's flow, or fault injection's stand-in for it. */
    private suspend fun upstream(launched: Any?): Flow<T> =
        if (launched is CompletionStage<*>) flowOf(launched.await(), resolved.callName()) else flowOf(launched, resolved.callName())

    @Suppress("UNCHECKED_CAST")
    private fun flowOf(returned: Any?, source: String): Flow<T> = when (returned) {
        is Flow<*> -> returned as Flow<T>
        // A Stack's fallback answers with one value, as a completed future.
        is CompletionStage<*> -> kotlinx.coroutines.flow.flow { (returned.await() as T?)?.let { emit(it) } }
        null -> throw NullPointerException("$source returned null instead of a Flow")
        else -> throw ClassCastException("$source returned ${returned.javaClass.name} instead of a Flow")
    }

    /** Waits on the registry's scheduler, so an injected clock drives it; cancelling it cancels the task. */
    private suspend fun sleep(nanos: Long) {
        val scheduler = execution.scheduler()
        suspendCancellableCoroutine { continuation ->
            val task = scheduler.schedule({ continuation.resumeWith(Result.success(Unit)) }, nanos, TimeUnit.NANOSECONDS)
            continuation.invokeOnCancellation { task.cancel(false) }
        }
        resumed = true
    }

    /** Runs a step of the execution in the caller's context once the call has moved threads. */
    private inline fun <R> step(block: () -> R): R {
        if (!resumed) return block()
        return execution.enterCallersContext().use { block() }
    }

    /** What ends an attempt whose bound passed before its first element. */
    private class AttemptExpired : CancellationException("the attempt's bound passed before its first element")

    private companion object {
        const val RUNNING = 0
        const val STREAMING = 1
        const val EXPIRED = 2
    }
}
