package dev.brace.kotlin

import dev.brace.runtime.CircuitOpenException
import dev.brace.runtime.CircuitState
import dev.brace.runtime.Deadline
import dev.brace.runtime.TimeoutExceededException
import java.io.IOException
import java.time.Duration
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.slf4j.MDC
import kotlin.coroutines.cancellation.CancellationException

class SuspendPatternsTest {
    private val world = ManualCoroutines()

    /** A delegate whose every method does what the test sets, counting calls and cancellations. */
    private class Scripted : Guarded {
        val calls = AtomicInteger()
        val cancelled = AtomicInteger()
        var script: suspend (Int) -> String = { "ok" }

        private suspend fun next(): String {
            val call = calls.incrementAndGet()
            try {
                return script(call)
            } catch (stopped: CancellationException) {
                cancelled.incrementAndGet()
                throw stopped
            }
        }

        override suspend fun slow(id: String) = next()
        override suspend fun held(id: String) = next()
        override suspend fun deadline(id: String) = next()
        override suspend fun limited(id: String) = next()
        override suspend fun hedged(id: String) = next()
        override suspend fun remembered(id: String) = next()
    }

    private val delegate = Scripted()
    private val guarded = ResilientGuarded.wrap(delegate, world.registry)

    @Test
    fun `backoff waits suspend, two calls on one thread are in their backoff at once`() {
        val items = CountingItems()
        val wrapped = ResilientItems.wrap(items, world.registry)
        world.run {
            val first = async { wrapped.item("1") }
            val second = async { wrapped.item("2") }
            repeat(20) { yield() }
            // Both failed once and both wait out their 10 ms backoff, on the one thread there is.
            assertEquals(2, items.calls.get())
            assertFalse(first.isCompleted || second.isCompleted)
            world.settle(second)
            assertEquals(listOf("item 1", "item 2"), listOf(first.await(), second.await()))
            assertEquals(4, items.calls.get())
        }
    }

    @Test
    fun `a timeout cancels the attempt's coroutine and ends it with TimeoutExceededException`() {
        delegate.script = { awaitCancellation() }
        assertThrows<TimeoutExceededException> { world.run { guarded.slow("1") } }
        world.run { repeat(5) { yield() } }
        assertEquals(1, delegate.cancelled.get())
    }

    @Test
    fun `a cancelled caller stops the call, the attempt is cancelled, nothing retried or counted, the permit back`() {
        val started = CompletableDeferred<Unit>()
        delegate.script = {
            started.complete(Unit)
            awaitCancellation()
        }
        world.run {
            val caller = launch { guarded.held("1") }
            started.await()
            assertEquals(0, world.registry.bulkhead("guarded").available())
            caller.cancelAndJoin()
            repeat(5) { yield() }
        }
        assertEquals(1, delegate.calls.get())
        assertEquals(1, delegate.cancelled.get())
        assertEquals(1, world.registry.bulkhead("guarded").available())
        assertEquals(CircuitState.CLOSED, world.registry.circuitBreaker("guarded").state())
    }

    @Test
    fun `a CancellationException of the delegate's own is never a failure, even for on = Throwable`() {
        delegate.script = { throw CancellationException("the delegate's own") }
        val thrown = assertThrows<CancellationException> { world.run { guarded.held("1") } }
        assertEquals("the delegate's own", original(thrown).message)
        assertEquals(1, delegate.calls.get())
        assertEquals(CircuitState.CLOSED, world.registry.circuitBreaker("guarded").state())
        assertEquals(1, world.registry.bulkhead("guarded").available())
    }

    @Test
    fun `a failure the breaker counts opens it, as for every form`() {
        delegate.script = { throw IOException("down") }
        // The retry's next attempt meets the open breaker: its refusal ends the call, the failure attached.
        val refused = assertThrows<CircuitOpenException> { world.run { guarded.held("1") } }
        assertEquals(listOf("down"), original(refused).suppressed.map { it.message })
        assertEquals(CircuitState.OPEN, world.registry.circuitBreaker("guarded").state())
    }

    @Test
    fun `the attempt's deadline and the caller's MDC are current wherever the delegate resumes`() {
        val seen = mutableListOf<Any?>()
        delegate.script = {
            withContext(Dispatchers.IO) {
                seen += Deadline.current().map { it.budget() }.orElse(null)
                seen += MDC.get("request")
            }
            seen += Deadline.current().isPresent
            "ok"
        }
        MDC.put("request", "r-1")
        try {
            world.run {
                assertEquals("ok", guarded.deadline("1"))
                MDC.remove("request")
                assertFalse(Deadline.current().isPresent, "nothing of the call is left on the caller's thread")
            }
        } finally {
            MDC.clear()
        }
        assertEquals(listOf(Duration.ofMillis(50), "r-1", true), seen)
    }

    @Test
    fun `a limiter's wait suspends until the token is due`() {
        world.run {
            val first = async { guarded.limited("1") }
            val second = async { guarded.limited("2") }
            first.await()
            val before = world.time.nanoTime()
            world.settle(second)
            assertEquals("ok", second.await())
            assertTrue(world.time.nanoTime() - before >= Duration.ofMillis(99).toNanos())
        }
    }

    @Test
    fun `a hedge starts a second attempt and cancels the slower one`() {
        delegate.script = { call -> if (call == 1) awaitCancellation() else "hedge" }
        assertEquals("hedge", world.run { guarded.hedged("1") })
        world.run { repeat(5) { yield() } }
        assertEquals(2, delegate.calls.get())
        assertEquals(1, delegate.cancelled.get())
    }

    @Test
    fun `a stale answer answers a failure`() {
        delegate.script = { call -> if (call == 1) "fresh" else throw IOException("down") }
        assertEquals("fresh", world.run { guarded.remembered("1") })
        assertEquals("fresh", world.run { guarded.remembered("1") })
    }

    @Test
    fun `fallbacks, a suspend one, a plain one, and a plain one for Unit`() {
        val answered = ResilientAnswered.wrap(object : Answered {
            override suspend fun item(id: String): String {
                yield()
                throw IOException("down")
            }

            override suspend fun plainItem(id: String): String = throw IOException("down")
            override suspend fun touch(id: String) = throw IOException("down")
            override fun items() = throw UnsupportedOperationException()
        }, world.registry)
        assertEquals("none for 1 after down", world.run { answered.item("1") })
        assertEquals("plain none for 2", world.run { answered.plainItem("2") })
        assertEquals(Unit, world.run { answered.touch("3") })
    }

    @Test
    fun `nothing is taken from the thread, a call that never suspends completes without dispatching`() {
        delegate.script = { "at once" }
        val onCaller = AtomicBoolean()
        world.run {
            val thread = Thread.currentThread()
            assertEquals("at once", guarded.held("1"))
            onCaller.set(Thread.currentThread() === thread)
        }
        assertTrue(onCaller.get())
        assertNotNull(world.registry.bulkhead("guarded"))
        assertEquals(1, world.registry.bulkhead("guarded").available())
    }

    private class CountingItems : Items {
        val calls = AtomicInteger()

        override suspend fun item(id: String): String {
            yield()
            if (calls.incrementAndGet() <= 2) throw IOException("down")
            return "item $id"
        }

        override fun items() = throw UnsupportedOperationException()
        override suspend fun count(id: String, times: Int) = times
        override suspend fun touch(id: String) {}
    }
}
