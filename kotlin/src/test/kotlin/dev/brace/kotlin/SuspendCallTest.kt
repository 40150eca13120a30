package dev.brace.kotlin

import java.io.IOException
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CoroutineName
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class SuspendCallTest {
    private val world = ManualCoroutines()

    private class FailingItems(private val failures: Int) : Items {
        val calls = AtomicInteger()

        override suspend fun item(id: String): String {
            yield()
            if (calls.incrementAndGet() <= failures) throw IOException("down ${calls.get()}")
            return "item $id"
        }

        override fun items() = throw UnsupportedOperationException()
        override suspend fun count(id: String, times: Int): Int {
            if (calls.incrementAndGet() <= failures) throw IOException("down")
            return times * 2
        }

        override suspend fun touch(id: String) {
            if (calls.incrementAndGet() <= failures) throw IOException("down")
        }
    }

    @Test
    fun `a suspend function that fails twice after suspending is called three times`() {
        val delegate = FailingItems(failures = 2)
        val items = ResilientItems.wrap(delegate, world.registry)

        assertEquals("item 7", world.run { items.item("7") })
        assertEquals(3, delegate.calls.get())
    }

    @Test
    fun `the last failure reaches the caller, the earlier ones attached`() {
        val delegate = FailingItems(failures = 5)
        val items = ResilientItems.wrap(delegate, world.registry)

        val failure = original(assertThrows<IOException> { world.run { items.item("7") } })
        assertEquals("down 3", failure.message)
        assertEquals(listOf("down 1", "down 2"), failure.suppressed.map { it.message })
    }

    @Test
    fun `primitive arguments and results and Unit pass through the slots`() {
        val delegate = FailingItems(failures = 1)
        val items = ResilientItems.wrap(delegate, world.registry)

        assertEquals(42, world.run { items.count("x", 21) })
        world.run { items.touch("x") }
        assertEquals(3, delegate.calls.get())
    }

    @Test
    fun `every attempt runs in the caller's coroutine context`() {
        val names = mutableListOf<String?>()
        val delegate = object : Items by FailingItems(failures = 0) {
            val calls = AtomicInteger()

            override suspend fun item(id: String): String {
                names += currentCoroutineContext()[CoroutineName]?.name
                yield()
                if (calls.incrementAndGet() <= 2) throw IOException("down")
                return "item $id"
            }
        }
        val items = ResilientItems.wrap(delegate, world.registry)

        assertEquals("item 1", world.run { withContext(CoroutineName("caller")) { items.item("1") } })
        assertEquals(listOf("caller", "caller", "caller"), names)
    }

    @Test
    fun `an unannotated suspend function is called straight through`() {
        val items = ResilientItems.wrap(FailingItems(failures = 0), world.registry)
        assertEquals("plain 1", world.run { items.plain("1") })
    }
}
