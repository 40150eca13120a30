package dev.brace.kotlin

import kotlin.coroutines.Continuation

/**
 * One call of a `suspend` function, made with the continuation it is given: what a generated
 * wrapper's attempt (or `suspend` fallback) is, so that brace-kotlin calls the delegate's function
 * again for each attempt, with a continuation of that attempt's own.
 *
 * Generated code makes one with [CoroutineCalls.attempt]; application code has no use for it.
 */
public fun interface SuspendInvocation {
    /**
     * @param continuation where the function's result goes when it suspends
     * @return the function's value, or `COROUTINE_SUSPENDED` when it will resume [continuation] later
     * @throws Throwable what the function threw; declared so that the generated Java lambda compiles
     *     when the function declares checked exceptions (`@Throws` in Kotlin, `throws` in Java)
     */
    @Throws(Throwable::class)
    public fun invoke(continuation: Continuation<Any?>): Any?
}
