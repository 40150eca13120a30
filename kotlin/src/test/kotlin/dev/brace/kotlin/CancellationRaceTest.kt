package dev.brace.kotlin

import dev.brace.Bulkhead
import dev.brace.RateLimit
import dev.brace.Retry
import dev.brace.Retry.Jitter
import dev.brace.Timeout
import dev.brace.runtime.Registry
import java.io.IOException
import java.util.concurrent.ScheduledThreadPoolExecutor
import java.util.concurrent.ThreadLocalRandom
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeoutOrNull
import kotlinx.coroutines.yield
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Cancellation racing everything else a suspend call can be doing: the delegate completing or
 * failing, the attempt's timeout firing, a backoff, a limiter's token arriving. Thousands of calls
 * on real threads, half of them cancelled at a random moment; afterwards nothing is left behind:
 * every bulkhead permit is back, no task waits on the scheduler (a cancelled wait for a token, a
 * backoff or a timeout takes its task with it), and every coroutine the delegate started has ended.
 */
class CancellationRaceTest {
    interface Raced {
        @Retry(maxAttempts = 3, delay = "1ms", jitter = Jitter.NONE)
        @RateLimit(name = "raced", permits = 1000, per = "10ms", maxWait = "5ms")
        @Bulkhead(name = "raced", maxConcurrent = 4, maxWait = "2ms")
        @Timeout("2ms")
        suspend fun call(id: Int): Int
    }

    /** Counts the delegate's coroutines alive; each call suspends, then answers, fails or overruns its timeout. */
    private class Delegate : Raced {
        val alive = AtomicInteger()
        val started = AtomicInteger()

        override suspend fun call(id: Int): Int {
            alive.incrementAndGet()
            started.incrementAndGet()
            try {
                when (ThreadLocalRandom.current().nextInt(4)) {
                    0 -> yield()
                    1 -> delay(ThreadLocalRandom.current().nextLong(0, 3))
                    2 -> throw IOException("down")
                    else -> delay(5) // past the timeout
                }
                return id
            } finally {
                alive.decrementAndGet()
            }
        }
    }

    private val scheduler = ScheduledThreadPoolExecutor(2).apply { removeOnCancelPolicy = true }
    private val registry = Registry.builder().scheduler(scheduler).build()

    @AfterEach
    fun stop() {
        scheduler.shutdownNow()
    }

    @Test
    fun `cancelling callers at random moments leaves no permit, task or coroutine behind`() {
        val delegate = Delegate()
        val raced = ResilientCancellationRaceTest_Raced.wrap(delegate, registry)
        val completed = AtomicInteger()
        runBlocking(Dispatchers.Default) {
            repeat(40) {
                val callers = List(100) { id ->
                    launch {
                        try {
                            raced.call(id)
                            completed.incrementAndGet()
                        } catch (expected: Exception) {
                            // Refusals, timeouts and the delegate's failures: outcomes, not leaks.
                        }
                    }
                }
                delay(ThreadLocalRandom.current().nextLong(0, 3))
                callers.filterIndexed { index, _ -> index % 2 == 0 }.forEach { it.cancel() }
                callers.joinAll()
            }
        }
        // Cancelled attempts end at their next suspension point, on the delegate's dispatcher.
        val settled = runBlocking {
            withTimeoutOrNull(5_000) {
                while (delegate.alive.get() > 0 || scheduler.queue.isNotEmpty()) delay(10)
                true
            }
        }
        assertEquals(true, settled, "still alive: ${delegate.alive.get()} coroutines, ${scheduler.queue.size} tasks")
        assertEquals(4, registry.bulkhead("raced").available(), "every bulkhead permit is back")
        assertTrue(delegate.started.get() > 400, "the race ran: ${delegate.started.get()} attempts")
        assertTrue(completed.get() > 0, "some calls completed")
    }

    @Test
    fun `a caller cancelled while waiting for a token or a permit gives it back`() {
        val delegate = Delegate()
        val raced = ResilientCancellationRaceTest_Raced.wrap(delegate, registry)
        runBlocking(Dispatchers.Default) {
            val jobs = mutableListOf<Job>()
            repeat(200) { id -> jobs += launch { runCatching { raced.call(id) } } }
            jobs.forEach { it.cancelAndJoin() }
        }
        val settled = runBlocking {
            withTimeoutOrNull(5_000) {
                while (delegate.alive.get() > 0 || scheduler.queue.isNotEmpty()) delay(10)
                true
            }
        }
        assertEquals(true, settled)
        assertEquals(4, registry.bulkhead("raced").available())
    }
}
