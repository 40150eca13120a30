package dev.brace.examples.spring;

import dev.brace.runtime.Registry;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application on brace-spring-boot-starter: its settings in application.yml, a
 * generated wrapper provided by a {@code @Bean} method, another put around a plain bean by the
 * starter, Actuator's {@code /actuator/brace} and {@code /actuator/health}, and {@code
 * /actuator/refresh} to apply changed settings without a restart.
 */
@SpringBootApplication
public class RecsApplication {
  /** Created by Spring. */
  public RecsApplication() {}

  /** @return the stand-in for the remote service, a bean so tests can make it fail */
  @Bean
  RecsService recsService() {
    return new RecsService();
  }

  /**
   * Wrapped by hand, on the starter's registry; the starter sees the wrapper and leaves it alone.
   *
   * @param service the remote service
   * @param registry the registry the starter configured from the environment
   * @return the resilient client the controller injects
   */
  @Bean
  Recommendations recommendations(RecsService service, Registry registry) {
    Recommendations plain = service::fetch;
    return ResilientRecommendations.wrap(plain, registry);
  }

  /** @param args command-line arguments, as Spring Boot reads them */
  public static void main(String[] args) {
    SpringApplication.run(RecsApplication.class, args);
  }
}
