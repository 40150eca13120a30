package dev.brace.examples.kotlin.retrofit

import dev.brace.examples.frameworks.ItemsServer
import dev.brace.examples.frameworks.ItemsServer.Answer
import dev.brace.runtime.Registry
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import retrofit2.HttpException

/**
 * [RetrofitItems], Retrofit's `suspend` client wrapped by Brace, against a real local server: a
 * 503 is retried, a 429 with `Retry-After: 1` makes the next attempt wait about a second (the
 * header read from the `HttpException` Retrofit throws for a `suspend` function), and the last
 * failure reaches the caller when the attempts run out.
 */
class RetrofitItemsTest {

    private lateinit var items: RetrofitItems

    @BeforeEach
    fun freshClient() {
        SERVER.reset()
        items = RetrofitClients.items(SERVER.uri(), Registry.builder().build())
    }

    @Test
    fun `a 503 is retried and the second attempt answers`() = runBlocking {
        SERVER.then(Answer.Status(503, null))

        assertEquals("item-1", items.item("1"))
        assertEquals(2, SERVER.requests().size)
    }

    @Test
    fun `a 429 with Retry-After 1 makes the next attempt wait about a second`() = runBlocking {
        SERVER.then(Answer.Status(429, "1"))

        assertEquals("item-1", items.item("1"))

        assertEquals(2, SERVER.requests().size)
        val waited = SERVER.millisBetween(0, 1)
        // The retry's own backoff is at most 50 ms: only the header explains a second.
        assertTrue(waited in 1_000..<1_600, "Retry-After: 1 is about a second, not the 50 ms backoff: $waited ms")
    }

    @Test
    fun `the last failure reaches the caller when the attempts run out`() = runBlocking {
        SERVER.always(Answer.Status(503, null))

        val failure = assertThrows<HttpException> { items.item("1") }

        assertEquals(503, failure.code())
        assertEquals(3, SERVER.requests().size)
        assertEquals(2, failure.suppressed.size, "the earlier failures attached")
    }

    companion object {
        private val SERVER = ItemsServer.start()

        @JvmStatic
        @AfterAll
        fun stopServer() {
            SERVER.close()
        }
    }
}
