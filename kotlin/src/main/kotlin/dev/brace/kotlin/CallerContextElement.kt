package dev.brace.kotlin

import dev.brace.runtime.spi.driver.CallerScope
import dev.brace.runtime.spi.driver.CapturedContext
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.ThreadContextElement

/**
 * Brace's context for one attempt's coroutine: the caller's MDC, OpenTelemetry context and
 * context-propagation values, and the attempt's bound as the current deadline. Installed on every
 * thread the attempt resumes on and taken off when it suspends, so `Deadline.current()` inside the
 * delegate is right after a `withContext(Dispatchers.IO)` too (a child coroutine inherits it).
 */
internal class CallerContextElement(private val captured: CapturedContext) : ThreadContextElement<CallerScope> {
    internal companion object Key : CoroutineContext.Key<CallerContextElement>

    override val key: CoroutineContext.Key<CallerContextElement>
        get() = Key

    override fun updateThreadContext(context: CoroutineContext): CallerScope = captured.enter()

    override fun restoreThreadContext(context: CoroutineContext, oldState: CallerScope) {
        oldState.close()
    }
}
