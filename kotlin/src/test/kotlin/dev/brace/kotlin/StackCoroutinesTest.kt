package dev.brace.kotlin

import dev.brace.runtime.Stack
import dev.brace.Retry
import java.io.IOException
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.yield
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class StackCoroutinesTest {
    private val world = ManualCoroutines()

    @Test
    fun `suspending runs the block once per attempt, and the fallback answers with its value`() {
        val calls = AtomicInteger()
        val stack = Stack.builder<String>("stack")
            .retry { it.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE) }
            .fallback { failure -> "fallback after ${failure.message}" }
            .build(world.registry)

        val value = world.run {
            stack.suspending {
                yield()
                if (calls.incrementAndGet() < 3) throw IOException("down")
                "third"
            }
        }
        assertEquals("third", value)
        assertEquals("fallback after down", world.run { stack.suspending { throw IOException("down") } })
    }

    @Test
    fun `flow re-collects the block's flow before the first element`() {
        val collections = AtomicInteger()
        val stack = Stack.builder<Int>("flows")
            .retry { it.maxAttempts(2).delay("10ms").jitter(Retry.Jitter.NONE) }
            .build(world.registry)
        val protected = stack.flow {
            flow {
                if (collections.incrementAndGet() == 1) throw IOException("down")
                emit(7)
            }
        }
        assertEquals(listOf(7), world.run { protected.toList() })
        assertEquals(2, collections.get())
    }

    @Test
    fun `a flow of a stack with a hedge is refused when collected`() {
        val stack = Stack.builder<Int>("hedged").hedge { it.delay("10ms") }.build(world.registry)
        val refused = assertThrows<IllegalStateException> { world.run { stack.flow { flow { emit(1) } }.toList() } }
        assertEquals(true, refused.message!!.contains("a Flow cannot have"))
    }
}
