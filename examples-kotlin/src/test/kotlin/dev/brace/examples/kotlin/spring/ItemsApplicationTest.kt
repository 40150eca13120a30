package dev.brace.examples.kotlin.spring

import dev.brace.examples.frameworks.webclient.NettyItemsServer
import dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.BROKEN
import dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.HANG
import dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.UNAVAILABLE
import dev.brace.runtime.CircuitOpenException
import dev.brace.runtime.CircuitState
import dev.brace.runtime.Registry
import dev.brace.runtime.TimeoutExceededException
import io.micrometer.core.instrument.MeterRegistry
import java.time.Duration
import kotlinx.coroutines.runBlocking
import org.springframework.web.reactive.function.client.WebClientResponseException
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource

/**
 * [ItemsApplication] started by Spring Boot's test support, its [ItemsClient] bean wrapped by the
 * starter, against a real local server: a 503 is retried, failures open the breaker, which then
 * refuses without a request, a hanging answer is cut at the timeout and its request given up, the
 * `suspend` fallback answers, and Brace's meters in the application's `MeterRegistry` record it
 * all. One application for every test; each starts with the server healed and the breaker closed.
 */
@SpringBootTest(classes = [ItemsApplication::class], webEnvironment = SpringBootTest.WebEnvironment.NONE)
class ItemsApplicationTest {

    @Autowired
    lateinit var items: ItemsClient

    @Autowired
    lateinit var registry: Registry

    @Autowired
    lateinit var meters: MeterRegistry

    @BeforeEach
    fun healed() {
        SERVER.reset()
        registry.circuitBreaker(BREAKER).reset()
    }

    @Test
    fun `the bean is the wrapper kapt generated`() {
        assertEquals("ResilientItemsClient", items.javaClass.simpleName)
    }

    @Test
    fun `a 503 is retried and the second attempt answers`() = runBlocking {
        SERVER.then(UNAVAILABLE)

        assertEquals("item-1", items.item("1"))
        assertEquals(2, SERVER.requests())
    }

    @Test
    fun `failures open the breaker, which then refuses without a request`() = runBlocking {
        SERVER.always(BROKEN)

        repeat(3) {
            assertThrows<WebClientResponseException.InternalServerError> { items.item("1") }
        }
        assertEquals(CircuitState.OPEN, registry.circuitBreaker(BREAKER).state())
        assertThrows<CircuitOpenException> { items.item("1") }
        assertEquals(3, SERVER.requests(), "nothing sent while open")
    }

    @Test
    fun `a hanging answer ends at the timeout and its request is given up`() = runBlocking {
        SERVER.always(HANG)
        val started = System.nanoTime()

        assertThrows<TimeoutExceededException> { items.item("1") }

        val millis = Duration.ofNanos(System.nanoTime() - started).toMillis()
        assertTrue(millis in 2_000..<5_000, "ended at the 2 s timeout: $millis ms")
        assertTrue(SERVER.awaitGivenUp(10), "the request's connection is closed")
        assertEquals(1, SERVER.requests(), "a timeout is not retried")
    }

    @Test
    fun `the suspend fallback answers when the service cannot`() = runBlocking {
        SERVER.always(UNAVAILABLE)

        assertEquals("unknown (1: ServiceUnavailable)", items.itemOrUnknown("1"))
        assertEquals(2, SERVER.requests(), "retried before the fallback")
    }

    @Test
    fun `Brace's meters in the application's registry record the calls`() = runBlocking {
        val callsBefore = calls("ItemsClient.item", "success")
        val retriedBefore = meters.find("brace.retry.attempts").tag("outcome", "retried").counters().sumOf { it.count() }
        SERVER.then(UNAVAILABLE)

        items.item("1")
        items.item("2")

        assertEquals(callsBefore + 2, calls("ItemsClient.item", "success"))
        assertEquals(
            retriedBefore + 1,
            meters.find("brace.retry.attempts").tag("outcome", "retried").counters().sumOf { it.count() },
        )
        assertEquals(0.0, meters.get("brace.circuitbreaker.state").tag("name", BREAKER).gauge().value(), "closed")
    }

    private fun calls(call: String, outcome: String): Long =
        meters.find("brace.calls").tag("call", call).tag("outcome", outcome).timers().sumOf { it.count() }

    companion object {
        private const val BREAKER = "kotlin-items"
        private val SERVER = NettyItemsServer()

        @JvmStatic
        @DynamicPropertySource
        fun itemsService(properties: DynamicPropertyRegistry) {
            properties.add("items.base-url") { SERVER.uri().toString() }
        }

        @JvmStatic
        @AfterAll
        fun stopServer() {
            SERVER.close()
        }
    }
}
