package dev.brace.examples.kotlin.retrofit

import dev.brace.Retry
import dev.brace.runtime.Registry
import java.io.IOException
import java.net.URI
import java.time.Duration
import okhttp3.OkHttpClient
import retrofit2.HttpException
import retrofit2.Retrofit
import retrofit2.converter.scalars.ScalarsConverterFactory
import retrofit2.create
import retrofit2.http.GET
import retrofit2.http.Path

/**
 * The items service as a Retrofit interface with a `suspend` function: Retrofit runs the request
 * itself and throws `HttpException` for an error answer (429, 503, 404 alike: Retrofit has no
 * exception per status, so the retry names `HttpException`). A `Retry-After` the answer carries
 * raises the wait before the next attempt to at least what it says, up to `maxRetryAfter`. Each
 * attempt is bounded by OkHttp's own connect and read timeouts.
 * [RetrofitClients.items] makes it and wraps it.
 */
interface RetrofitItems {

    /** An item's description. */
    @GET("items/{id}")
    @Retry(maxAttempts = 3, delay = "50ms", maxRetryAfter = "2s", on = [IOException::class, HttpException::class])
    suspend fun item(@Path("id") id: String): String
}

/** How the Retrofit client is made and wrapped, as an application would do it without Spring. */
object RetrofitClients {
    /** @return the Retrofit client of the items service at [baseUri], wrapped in the generated `ResilientRetrofitItems` */
    fun items(baseUri: URI, registry: Registry): RetrofitItems {
        val http = OkHttpClient.Builder()
            .connectTimeout(Duration.ofMillis(500))
            .readTimeout(Duration.ofSeconds(2))
            .build()
        val retrofit = Retrofit.Builder()
            .baseUrl("$baseUri/")
            .client(http)
            .addConverterFactory(ScalarsConverterFactory.create())
            .build()
        return ResilientRetrofitItems.wrap(retrofit.create<RetrofitItems>(), registry)
    }
}
