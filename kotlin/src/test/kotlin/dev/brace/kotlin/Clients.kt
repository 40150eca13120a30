package dev.brace.kotlin

import dev.brace.Bulkhead
import dev.brace.CircuitBreaker
import dev.brace.Fallback
import dev.brace.Hedge
import dev.brace.Retry.Jitter
import dev.brace.RateLimit
import dev.brace.Retry
import dev.brace.StaleIfError
import dev.brace.Timeout
import java.io.IOException
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf

/** The client interfaces the tests wrap: Kotlin, as a team writes them, processed under kapt. */
interface Items {
    @Retry(maxAttempts = 3, delay = "10ms", jitter = Jitter.NONE)
    suspend fun item(id: String): String

    @Retry(maxAttempts = 3, delay = "10ms", jitter = Jitter.NONE)
    fun items(): Flow<String>

    @Retry(maxAttempts = 2, delay = "10ms", jitter = Jitter.NONE)
    suspend fun count(id: String, times: Int): Int

    @Retry(maxAttempts = 2, delay = "10ms", jitter = Jitter.NONE)
    suspend fun touch(id: String)

    suspend fun plain(id: String): String = "plain $id"
}

interface Guarded {
    @Timeout("50ms")
    suspend fun slow(id: String): String

    @Bulkhead(name = "guarded", maxConcurrent = 1)
    @CircuitBreaker(name = "guarded", failureThreshold = 1, on = [Throwable::class])
    @Retry(maxAttempts = 3, delay = "10ms", jitter = Jitter.NONE)
    suspend fun held(id: String): String

    @Timeout("50ms")
    @Retry(maxAttempts = 2, delay = "10ms", jitter = Jitter.NONE)
    suspend fun deadline(id: String): String

    @RateLimit(name = "guarded-limit", permits = 1, per = "100ms", maxWait = "1s")
    suspend fun limited(id: String): String

    @Hedge(delay = "20ms")
    suspend fun hedged(id: String): String

    @StaleIfError(maxAge = "1m")
    suspend fun remembered(id: String): String
}

interface Answered {
    @Fallback(method = "noItem", on = [IOException::class])
    suspend fun item(id: String): String

    suspend fun noItem(id: String, cause: IOException): String = "none for $id after ${cause.message}"

    @Fallback(method = "plainNo")
    suspend fun plainItem(id: String): String

    fun plainNo(id: String): String = "plain none for $id"

    @Fallback(method = "forget")
    suspend fun touch(id: String)

    fun forget(id: String) {}

    @Fallback(method = "noItems")
    @Retry(maxAttempts = 2, delay = "10ms", jitter = Jitter.NONE)
    fun items(): Flow<String>

    fun noItems(cause: Throwable): Flow<String> = flowOf("fallback")
}

interface Streams {
    @Timeout("50ms")
    @Retry(maxAttempts = 2, delay = "10ms", jitter = Jitter.NONE)
    fun ticks(): Flow<Int>

    @Bulkhead(name = "streams", maxConcurrent = 1)
    @CircuitBreaker(name = "streams", failureThreshold = 1)
    fun held(): Flow<Int>
}
