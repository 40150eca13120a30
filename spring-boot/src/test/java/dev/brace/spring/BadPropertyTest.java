package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brace.runtime.ConfigurationException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * A {@code brace.*} property (or {@code BRACE_*} variable) with a bad value stops the application
 * context from starting, with a message that names the key as Brace reads it, the instance and
 * what is accepted. The context is started by Spring Boot's test runner; no server.
 */
class BadPropertyTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BraceAutoConfiguration.class))
      .withUserConfiguration(PlainQuotes.class);

  /** A plain bean the starter wraps when the context starts, so its settings are read then. */
  @Configuration(proxyBeanMethods = false)
  static class PlainQuotes {
    @Bean
    Quotes quotes() {
      return symbol -> "1.00";
    }
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(delimiter = '|', value = {
      "brace.hedge.Quotes.latest.max-hedges        | 0     | brace.hedge.Quotes.latest.max-hedges=0: hedge 'Quotes.latest': maxHedges = \"0\"",
      "brace.hedge.Quotes.latest.maxHedges         | 11    | brace.hedge.Quotes.latest.max-hedges=11: hedge 'Quotes.latest': maxHedges = \"11\"",
      "brace.hedge.[Quotes.latest].delay           | -5ms  | brace.hedge.Quotes.latest.delay=-5ms: hedge 'Quotes.latest': delay = \"-5ms\"",
      "brace.staleiferror.Quotes.latest.max-age    | 0s    | brace.staleiferror.Quotes.latest.max-age=0s: stale-if-error 'Quotes.latest': maxAge = \"0ms\"",
      "brace.staleiferror.Quotes.latest.fresh      | 10m   | brace.staleiferror.Quotes.latest.fresh=10m: stale-if-error 'Quotes.latest': fresh = \"10m\"",
      "brace.circuitbreaker.quotes-api.slow-call   | slow  | brace.circuitbreaker.quotes-api.slow-call=slow: circuit breaker 'quotes-api': slowCall = \"slow\"",
      "brace.circuit-breaker.quotes-api.slowCallRate | 1.5 | brace.circuitbreaker.quotes-api.slow-call-rate=1.5: circuit breaker 'quotes-api': slowCallRate = \"1.5\"",
      "brace.bulkhead.quotes-api.adaptive          | fast  | brace.bulkhead.quotes-api.adaptive=fast: bulkhead 'quotes-api': adaptive = \"fast\"",
      "brace.bulkhead.quotes-api.min-concurrent    | 0     | brace.bulkhead.quotes-api.min-concurrent=0: bulkhead 'quotes-api': minConcurrent = \"0\"",
      "brace.bulkhead.quotes-api.default-share     | 0     | brace.bulkhead.quotes-api.default-share=0: bulkhead 'quotes-api': defaultShare = \"0.0\"",
      "brace.bulkhead.quotes-api.sheddable_share   | most  | brace.bulkhead.quotes-api.sheddable-share=most: bulkhead 'quotes-api': sheddableShare = \"most\"",
      "brace.ratelimit.quotes-api.decrease         | 1     | brace.ratelimit.quotes-api.decrease=1: rate limiter 'quotes-api': decrease = \"1.0\"",
      "brace.ratelimit.quotes-api.min-permits      | 101   | brace.ratelimit.quotes-api.min-permits=101: rate limiter 'quotes-api': minPermits = \"101\"",
      "brace.ratelimit.quotes-api.adaptive         | maybe | brace.ratelimit.quotes-api.adaptive=maybe: rate limiter 'quotes-api': adaptive = \"maybe\"",
      "brace.bulkhead.quotes-api.enabled           | no    | [brace:invalid-switch] brace.bulkhead.quotes-api.enabled=no: expected true or false",
  })
  void aBadPropertyStopsTheStartNamingIt(String property, String value, String expected) {
    runner.withPropertyValues(property + "=" + value).run(context -> {
      assertThat(context).hasFailed();
      Throwable failure = context.getStartupFailure();
      System.out.println("[reliability] spring-bad-property " + property + "=" + value + " -> " + failure.getMessage());
      assertThat(failure).hasMessageContaining(expected);
      assertThat(failure).hasRootCauseInstanceOf(ConfigurationException.class);
    });
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(delimiter = '|', value = {
      "BRACE_HEDGE_QUOTES_LATEST_MAX_HEDGES | many | BRACE_HEDGE_QUOTES_LATEST_MAX_HEDGES=many: hedge 'Quotes.latest': maxHedges = \"many\"",
      "BRACE_BULKHEAD_QUOTES_API_INITIAL_CONCURRENT | 9 | BRACE_BULKHEAD_QUOTES_API_INITIAL_CONCURRENT=9: bulkhead 'quotes-api': initialConcurrent = \"9\"",
  })
  void aBadVariableStopsTheStartNamingIt(String variable, String value, String expected) {
    runner.withInitializer(context -> context.getEnvironment().getPropertySources().replace(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(variable, value))))
        .run(context -> {
          assertThat(context).hasFailed();
          System.out.println("[reliability] spring-bad-variable " + variable + "=" + value + " -> " + context.getStartupFailure().getMessage());
          assertThat(context.getStartupFailure()).hasMessageContaining(expected);
        });
  }
}
