package dev.brace.benchmarks

import io.github.resilience4j.bulkhead.Bulkhead
import io.github.resilience4j.circuitbreaker.CircuitBreaker
import io.github.resilience4j.kotlin.bulkhead.bulkhead
import io.github.resilience4j.kotlin.bulkhead.executeSuspendFunction
import io.github.resilience4j.kotlin.circuitbreaker.circuitBreaker
import io.github.resilience4j.kotlin.circuitbreaker.executeSuspendFunction
import io.github.resilience4j.kotlin.ratelimiter.executeSuspendFunction
import io.github.resilience4j.kotlin.ratelimiter.rateLimiter
import io.github.resilience4j.kotlin.retry.executeSuspendFunction
import io.github.resilience4j.kotlin.retry.retry
import io.github.resilience4j.ratelimiter.RateLimiter
import io.github.resilience4j.retry.Retry
import kotlinx.coroutines.flow.Flow

/**
 * resilience4j-kotlin's stacks, as a Kotlin user writes them: `executeSuspendFunction` blocks nested
 * in Brace's order (retry outermost, bulkhead innermost) around one call of the target's `suspend`
 * function (Kotlin reads a Java method with a trailing `Continuation` as one), and its Flow
 * operators applied to the target's flow per call, innermost first.
 */
object Resilience4jCoroutines {
    @JvmStatic
    suspend fun retry(target: SuspendTarget, retry: Retry): String =
        retry.executeSuspendFunction { target.call() }

    @JvmStatic
    suspend fun fourPatterns(
        target: SuspendTarget, bulkhead: Bulkhead, limiter: RateLimiter, breaker: CircuitBreaker, retry: Retry,
    ): String =
        retry.executeSuspendFunction {
            breaker.executeSuspendFunction {
                limiter.executeSuspendFunction {
                    bulkhead.executeSuspendFunction { target.call() }
                }
            }
        }

    // A service's four suspend dependencies (serviceSuspend), each through its own four instances:
    // one function per dependency, each a tail call, so that no state machine of the benchmark's own
    // is counted, and each lambda as a user writes it.

    @JvmStatic
    suspend fun item(client: SuspendServiceClients.Catalog, on: Resilience4jBenchmarks.Coroutines): String =
        inBraceOrder(on) { client.item("a") }

    @JvmStatic
    suspend fun price(client: SuspendServiceClients.Prices, on: Resilience4jBenchmarks.Coroutines): String =
        inBraceOrder(on) { client.price("b") }

    @JvmStatic
    suspend fun available(client: SuspendServiceClients.Stock, on: Resilience4jBenchmarks.Coroutines): Int =
        inBraceOrder(on) { client.available("c") }

    @JvmStatic
    suspend fun summary(client: SuspendServiceClients.Reviews, on: Resilience4jBenchmarks.Coroutines): String =
        inBraceOrder(on) { client.summary("d") }

    private suspend fun <T> inBraceOrder(on: Resilience4jBenchmarks.Coroutines, call: suspend () -> T): T =
        on.retry.executeSuspendFunction {
            on.breaker.executeSuspendFunction {
                on.limiter.executeSuspendFunction {
                    on.bulkhead.executeSuspendFunction { call() }
                }
            }
        }

    @JvmStatic
    fun retry(elements: Flow<String>, retry: Retry): Flow<String> = elements.retry(retry)

    @JvmStatic
    fun fourPatterns(
        elements: Flow<String>, bulkhead: Bulkhead, limiter: RateLimiter, breaker: CircuitBreaker, retry: Retry,
    ): Flow<String> = elements.bulkhead(bulkhead).rateLimiter(limiter).circuitBreaker(breaker).retry(retry)
}
