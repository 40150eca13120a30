package dev.brace.examples.kotlin.spring

import org.springframework.beans.factory.annotation.Value
import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.runApplication
import org.springframework.context.annotation.Bean
import org.springframework.web.reactive.function.client.WebClient
import org.springframework.web.reactive.function.client.support.WebClientAdapter
import org.springframework.web.service.invoker.HttpServiceProxyFactory
import org.springframework.web.service.invoker.createClient

/**
 * A Spring Boot application that calls the items service through [ItemsClient], a Kotlin HTTP
 * interface with `suspend` functions on the `WebClient` Spring Boot configures. Nothing here
 * mentions Brace: the starter finds the generated wrapper of the bean's interface and puts it in
 * the bean's place, and binds Brace's meters to the application's `MeterRegistry`.
 */
@SpringBootApplication
class ItemsApplication {

    /** The client as Spring makes it, from the base URL in `items.base-url`. */
    @Bean
    fun itemsClient(webClient: WebClient.Builder, @Value("\${items.base-url}") baseUrl: String): ItemsClient =
        HttpServiceProxyFactory.builderFor(WebClientAdapter.create(webClient.baseUrl(baseUrl).build()))
            .build()
            .createClient<ItemsClient>()
}

fun main(args: Array<String>) {
    runApplication<ItemsApplication>(*args)
}
