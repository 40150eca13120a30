package dev.brace.examples.quickstart;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * A service that calls the product catalog through {@link CatalogClient}: Spring makes the client
 * from {@code @ImportHttpServices}, and the Brace starter wraps it in the generated {@code
 * ResilientCatalogClient}.
 */
@SpringBootApplication
@ImportHttpServices(group = "catalog", types = CatalogClient.class)
public class CatalogApplication {
  /** Created by Spring. */
  public CatalogApplication() {}

  /** @param args command-line arguments, as Spring Boot reads them */
  public static void main(String[] args) {
    SpringApplication.run(CatalogApplication.class, args);
  }
}
