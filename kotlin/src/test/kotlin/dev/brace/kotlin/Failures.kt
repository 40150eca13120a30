package dev.brace.kotlin

/**
 * The exception the call ended with. With assertions on (as in tests), kotlinx.coroutines recovers
 * stack traces across suspensions by throwing a copy whose cause is the original.
 */
fun <T : Throwable> original(thrown: T): T {
    val cause = thrown.cause
    @Suppress("UNCHECKED_CAST")
    return if (cause != null && cause.javaClass == thrown.javaClass && cause.message == thrown.message) cause as T else thrown
}
