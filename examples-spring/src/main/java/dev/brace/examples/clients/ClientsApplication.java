package dev.brace.examples.clients;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * An application that calls the items service through two clients Spring makes, both wrapped by
 * the Brace starter: {@link BootItemsApi} (an HTTP interface, {@code @ImportHttpServices}) and
 * {@link CloudItemsApi} (Spring Cloud OpenFeign, {@code @EnableFeignClients}). The annotations on the
 * interfaces are all the Brace code there is.
 */
@SpringBootApplication
@ImportHttpServices(group = "items", types = BootItemsApi.class)
@EnableFeignClients(clients = CloudItemsApi.class)
public class ClientsApplication {
  /** Created by Spring. */
  public ClientsApplication() {}

  /** @param args command-line arguments, as Spring Boot reads them */
  public static void main(String[] args) {
    SpringApplication.run(ClientsApplication.class, args);
  }
}
