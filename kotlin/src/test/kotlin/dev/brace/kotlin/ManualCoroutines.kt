package dev.brace.kotlin

import dev.brace.runtime.ManualTimeSource
import dev.brace.runtime.Registry
import java.time.Duration
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.async
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.yield

/** A registry on a manual clock, and a single-threaded coroutine world that clock drives. */
class ManualCoroutines {
    val time = ManualTimeSource()
    val registry: Registry = Registry.builder().timeSource(time).scheduler(time.scheduler()).build()

    /**
     * Runs [block] on runBlocking's one thread, advancing the registry's clock a millisecond at a
     * time whenever every coroutine is suspended, until [block] ends.
     */
    fun <T> run(block: suspend CoroutineScope.() -> T): T = runBlocking {
        val result = async { block() }
        settle(result)
        result.await()
    }

    /** Lets every coroutine run until it suspends, then advances the clock until [until] completes. */
    suspend fun settle(until: Deferred<*>, limit: Duration = Duration.ofSeconds(10)) {
        var spent = Duration.ZERO
        while (!until.isCompleted) {
            repeat(10) { yield() }
            if (until.isCompleted) return
            check(spent < limit) { "still running after $limit of the manual clock" }
            time.advance(Duration.ofMillis(1))
            spent = spent.plusMillis(1)
        }
    }
}
