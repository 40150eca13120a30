package dev.brace.kotlin

import dev.brace.runtime.CircuitState
import dev.brace.runtime.Deadline
import java.time.Duration
import java.io.IOException
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.emitAll
import kotlinx.coroutines.flow.emptyFlow
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.yield
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import kotlin.coroutines.cancellation.CancellationException

class FlowCallTest {
    private val world = ManualCoroutines()

    /** A delegate whose flows do what the test sets per collection, counting collections and cancellations. */
    private class Scripted : Items, Streams, Answered {
        val collections = AtomicInteger()
        val cancelled = AtomicInteger()
        var script: suspend kotlinx.coroutines.flow.FlowCollector<Int>.(Int) -> Unit = {}

        private fun ints(): Flow<Int> = flow {
            val collection = collections.incrementAndGet()
            try {
                script(collection)
            } catch (stopped: CancellationException) {
                cancelled.incrementAndGet()
                throw stopped
            }
        }

        override fun ticks() = ints()
        override fun held() = ints()
        override fun items(): Flow<String> = flow { ints().collect { emit("e$it") } }

        override suspend fun item(id: String) = throw UnsupportedOperationException()
        override suspend fun count(id: String, times: Int) = times
        override suspend fun touch(id: String) {}
        override suspend fun plainItem(id: String) = throw UnsupportedOperationException()
    }

    private val delegate = Scripted()
    private val items = ResilientItems.wrap(delegate, world.registry)
    private val streams = ResilientStreams.wrap(delegate, world.registry)
    private val answered = ResilientAnswered.wrap(delegate, world.registry)

    @Test
    fun `each collection is one call, retried while nothing was emitted`() {
        delegate.script = { collection ->
            yield()
            if (collection <= 2) throw IOException("down $collection")
            emit(1)
            emit(2)
        }
        val flow = items.items()
        assertEquals(0, delegate.collections.get(), "nothing runs before a collection")
        assertEquals(listOf("e1", "e2"), world.run { flow.toList() })
        assertEquals(3, delegate.collections.get())
        assertEquals(listOf("e1", "e2"), world.run { flow.toList() })
        assertEquals(4, delegate.collections.get())
    }

    @Test
    fun `a failure after an element ends the call as it is`() {
        delegate.script = {
            emit(1)
            throw IOException("after one")
        }
        val received = mutableListOf<String>()
        val failure = assertThrows<IOException> { world.run { items.items().collect { received += it } } }
        assertEquals("after one", original(failure).message)
        assertEquals(listOf("e1"), received)
        assertEquals(1, delegate.collections.get())
    }

    @Test
    fun `the timeout bounds the time to the first element, and cancels that collection`() {
        delegate.script = { collection ->
            if (collection == 1) awaitCancellation()
            emit(1)
            emit(2)
        }
        assertEquals(listOf(1, 2), world.run { streams.ticks().toList() })
        assertEquals(2, delegate.collections.get())
        assertEquals(1, delegate.cancelled.get())
    }

    @Test
    fun `the permit is held until the collector stops, which gives it back without an outcome`() {
        val emitted = CompletableDeferred<Unit>()
        delegate.script = {
            emit(1)
            emitted.complete(Unit)
            awaitCancellation()
        }
        world.run {
            val collector = launch { streams.held().collect {} }
            emitted.await()
            assertEquals(0, world.registry.bulkhead("streams").available())
            collector.cancelAndJoin()
        }
        assertEquals(1, world.registry.bulkhead("streams").available())
        assertEquals(CircuitState.CLOSED, world.registry.circuitBreaker("streams").state())

        delegate.script = { emit(1); emit(2); emit(3) }
        assertEquals(1, world.run { streams.held().first() })
        assertEquals(1, world.registry.bulkhead("streams").available())
        assertEquals(CircuitState.CLOSED, world.registry.circuitBreaker("streams").state())
    }

    @Test
    fun `what the collector throws passes through untouched and is nobody's failure`() {
        delegate.script = { emit(1) }
        val thrown = assertThrows<IllegalStateException> {
            world.run { streams.held().collect { throw IllegalStateException("the collector's own") } }
        }
        assertEquals("the collector's own", original(thrown).message)
        assertEquals(CircuitState.CLOSED, world.registry.circuitBreaker("streams").state())
        assertEquals(1, world.registry.bulkhead("streams").available())
    }

    @Test
    fun `a failure the breaker counts opens it`() {
        delegate.script = { throw IOException("down") }
        assertThrows<IOException> { world.run { streams.held().toList() } }
        assertEquals(CircuitState.OPEN, world.registry.circuitBreaker("streams").state())
        assertEquals(1, world.registry.bulkhead("streams").available())
    }

    @Test
    fun `the fallback's flow answers a failure before the first element`() {
        delegate.script = { throw IOException("down") }
        assertEquals(listOf("fallback"), world.run { answered.items().toList() })
        assertEquals(2, delegate.collections.get())
    }

    @Test
    fun `a cold flow is collected under the attempt's deadline, on every attempt`() {
        val budgets = mutableListOf<Any?>()
        delegate.script = { collection ->
            budgets += Deadline.current().map { it.budget() }.orElse(null)
            if (collection == 1) throw IOException("down")
            emit(1)
        }
        val leftOver = world.run {
            val elements = streams.ticks().toList()
            elements to Deadline.current().isPresent
        }
        assertEquals(listOf(1) to false, leftOver, "the elements, and nothing of the attempt left on the collector's thread")
        assertEquals(listOf(Duration.ofMillis(50), Duration.ofMillis(50)), budgets)
    }

    @Test
    fun `an empty flow completes the call`() {
        delegate.script = { emitAll(emptyFlow()) }
        assertEquals(emptyList<Int>(), world.run { streams.held().toList() })
        assertEquals(1, world.registry.bulkhead("streams").available())
    }
}
