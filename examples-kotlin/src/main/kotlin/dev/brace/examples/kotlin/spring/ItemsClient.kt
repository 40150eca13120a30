package dev.brace.examples.kotlin.spring

import dev.brace.CircuitBreaker
import dev.brace.Fallback
import dev.brace.Retry
import dev.brace.Timeout
import java.io.IOException
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.reactive.function.client.WebClientResponseException
import org.springframework.web.service.annotation.GetExchange
import org.springframework.web.service.annotation.HttpExchange

/**
 * The items service as a Spring HTTP interface on `WebClient`, its methods `suspend` functions.
 * Spring makes the proxy ([ItemsApplication.itemsClient]); the starter wraps the bean in the
 * `ResilientItemsClient` that kapt generated from this interface, so the annotations are all the
 * Brace code there is.
 *
 * A 503 answer reaches the caller as `WebClientResponseException.ServiceUnavailable`, a refused
 * connection as a `WebClientRequestException` caused by an `IOException`: the retry names both
 * (causes are matched too).
 */
@HttpExchange(url = "/items", accept = ["text/plain"])
interface ItemsClient {

    /** An item's description; a failure the retry gives up on, a refusal or a timeout reaches the caller. */
    @GetExchange("/{id}")
    @Retry(maxAttempts = 3, delay = "20ms", on = [IOException::class, WebClientResponseException.ServiceUnavailable::class])
    @CircuitBreaker(name = "kotlin-items", failureThreshold = 3, resetTimeout = "10s")
    @Timeout("2s")
    suspend fun item(@PathVariable("id") id: String): String

    /** The same request, answered by [unknown] when the service cannot answer. */
    @GetExchange("/{id}")
    @Retry(maxAttempts = 2, delay = "20ms", on = [IOException::class, WebClientResponseException.ServiceUnavailable::class])
    @Fallback(method = "unknown")
    suspend fun itemOrUnknown(@PathVariable("id") id: String): String

    /** The fallback of [itemOrUnknown]: a `suspend` function too, given why the call failed. */
    suspend fun unknown(id: String, cause: Exception): String = "unknown ($id: ${cause.javaClass.simpleName})"
}
