package dev.brace.examples.reactive;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.service.registry.HttpServiceGroup;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * An application that calls the items service through an HTTP interface on {@code WebClient},
 * which Spring makes and the Brace starter wraps. The annotations on {@link ReactiveItemsApi} are
 * all the Brace code there is.
 */
@SpringBootApplication
@ImportHttpServices(group = "reactive-items", types = ReactiveItemsApi.class, clientType = HttpServiceGroup.ClientType.WEB_CLIENT)
public class ReactiveItemsApplication {
  /** Created by Spring. */
  public ReactiveItemsApplication() {}

  /** @param args command-line arguments, as Spring Boot reads them */
  public static void main(String[] args) {
    SpringApplication.run(ReactiveItemsApplication.class, args);
  }
}
