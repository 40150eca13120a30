package example

import java.io.IOException
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class ItemsTest {
    /** Suspends, then fails twice, as a dependency that is briefly down. */
    private class FlakyItems : Items {
        val calls = AtomicInteger()
        val collections = AtomicInteger()

        override suspend fun item(id: String): String {
            delay(5)
            if (calls.incrementAndGet() <= 2) throw IOException("down")
            return "item $id"
        }

        override fun items(): Flow<String> = flow {
            if (collections.incrementAndGet() <= 2) throw IOException("down")
            emit("a")
            emit("b")
        }
    }

    private val delegate = FlakyItems()
    private val items: Items = ResilientItems.wrap(delegate)

    @Test
    fun suspendFunctionIsRetried() = runBlocking {
        assertEquals("item 7", items.item("7"))
        assertEquals(3, delegate.calls.get())
    }

    @Test
    fun flowIsCollectedAgainUntilItSucceeds() = runBlocking {
        assertEquals(listOf("a", "b"), items.items().toList())
        assertEquals(3, delegate.collections.get())
    }
}
