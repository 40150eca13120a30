package example

import dev.brace.Retry
import kotlinx.coroutines.flow.Flow

interface Items {
    @Retry(maxAttempts = 3, delay = "10ms")
    suspend fun item(id: String): String

    @Retry(maxAttempts = 3, delay = "10ms")
    fun items(): Flow<String>
}
