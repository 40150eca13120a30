package dev.brace.spring;

import dev.brace.spring.deadline.DeadlineExchangeFilter;
import dev.brace.spring.deadline.DeadlineHeader;
import dev.brace.spring.deadline.DeadlineRequestInterceptor;
import dev.brace.spring.deadline.DeadlineServletFilter;
import dev.brace.spring.deadline.DeadlineWebFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Deadlines across services, when {@code brace.deadline.header} names the request header that
 * carries one (off by default; e.g. {@code Request-Timeout}, {@code x-envoy-expected-rq-timeout-ms},
 * in milliseconds left): each incoming request that carries it runs under that deadline (a servlet
 * filter, or a {@code WebFilter} in a reactive application — only what the application's web
 * stack has), and requests sent through {@code RestClient} and {@code WebClient} builders under a
 * deadline carry what is left of it.
 */
@AutoConfiguration
@ConditionalOnProperty(name = "brace.deadline.header")
public class BraceDeadlineAutoConfiguration {
  /** The property naming the header. */
  static final String HEADER = "brace.deadline.header";

  /** Created by Spring. */
  public BraceDeadlineAutoConfiguration() {}

  /**
   * @param environment read for {@code brace.deadline.header}
   * @return the header
   */
  @Bean
  public DeadlineHeader braceDeadlineHeader(Environment environment) {
    return new DeadlineHeader(environment.getRequiredProperty(HEADER));
  }

  /** Incoming requests of a servlet application. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  @ConditionalOnClass(name = {"jakarta.servlet.Filter", "org.springframework.boot.web.servlet.FilterRegistrationBean"})
  public static class Servlet {
    /** Created by Spring. */
    public Servlet() {}

    /**
     * @param header the header
     * @return the filter, registered first, so every other filter and the handler run under the deadline
     */
    @Bean
    public FilterRegistrationBean<DeadlineServletFilter> braceDeadlineFilter(DeadlineHeader header) {
      FilterRegistrationBean<DeadlineServletFilter> registration = new FilterRegistrationBean<>(new DeadlineServletFilter(header));
      registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
      registration.setName("braceDeadlineFilter");
      return registration;
    }
  }

  /** Incoming requests of a reactive application. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
  @ConditionalOnClass(name = "org.springframework.web.server.WebFilter")
  public static class Reactive {
    /** Created by Spring. */
    public Reactive() {}

    /**
     * @param header the header
     * @return the filter
     */
    @Bean
    public DeadlineWebFilter braceDeadlineWebFilter(DeadlineHeader header) {
      return new DeadlineWebFilter(header);
    }
  }

  /** Requests sent through {@code RestClient} builders. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"org.springframework.web.client.RestClient", "org.springframework.boot.restclient.RestClientCustomizer"})
  public static class Rest {
    /** Created by Spring. */
    public Rest() {}

    /**
     * @param header the header
     * @return adds the interceptor to every builder Spring Boot hands out
     */
    @Bean
    public RestClientCustomizer braceDeadlineRestClientCustomizer(DeadlineHeader header) {
      DeadlineRequestInterceptor interceptor = new DeadlineRequestInterceptor(header);
      return builder -> builder.requestInterceptor(interceptor);
    }
  }

  /** Requests sent through {@code WebClient} builders. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"org.springframework.web.reactive.function.client.WebClient",
      "org.springframework.boot.webclient.WebClientCustomizer"})
  public static class Web {
    /** Created by Spring. */
    public Web() {}

    /**
     * @param header the header
     * @return adds the filter to every builder Spring Boot hands out
     */
    @Bean
    public WebClientCustomizer braceDeadlineWebClientCustomizer(DeadlineHeader header) {
      DeadlineExchangeFilter filter = new DeadlineExchangeFilter(header);
      return builder -> builder.filter(filter);
    }
  }
}
