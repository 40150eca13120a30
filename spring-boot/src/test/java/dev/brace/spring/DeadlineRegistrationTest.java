package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.brace.runtime.Deadline;
import dev.brace.spring.deadline.DeadlineHeader;
import dev.brace.spring.deadline.DeadlineServletFilter;
import dev.brace.spring.deadline.DeadlineWebFilter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webclient.WebClientCustomizer;

/** What the starter registers for deadlines: nothing unless the header is named; then only what the web stack has. */
class DeadlineRegistrationTest {
  private static final AutoConfigurations STARTER =
      AutoConfigurations.of(BraceAutoConfiguration.class, BraceDeadlineAutoConfiguration.class);

  @Test
  void offUnlessAHeaderIsNamed() {
    new WebApplicationContextRunner().withConfiguration(STARTER).run(context -> {
      assertThat(context).doesNotHaveBean(DeadlineHeader.class);
      assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
      assertThat(context).doesNotHaveBean(RestClientCustomizer.class);
    });
  }

  @Test
  void aServletApplicationGetsTheServletFilterAndTheClientHooks() {
    new WebApplicationContextRunner().withConfiguration(STARTER).withPropertyValues("brace.deadline.header=Request-Timeout")
        .run(context -> {
          assertThat(context.getBean(FilterRegistrationBean.class).getFilter()).isInstanceOf(DeadlineServletFilter.class);
          assertThat(context).doesNotHaveBean(DeadlineWebFilter.class);
          assertThat(context).hasSingleBean(RestClientCustomizer.class).hasSingleBean(WebClientCustomizer.class);
          assertThat(context.getBean(dev.brace.runtime.Registry.class)).isNotNull();
        });
  }

  @Test
  void aReactiveApplicationGetsTheWebFilter() {
    new ReactiveWebApplicationContextRunner().withConfiguration(STARTER)
        .withPropertyValues("brace.deadline.header=x-envoy-expected-rq-timeout-ms")
        .run(context -> {
          assertThat(context).hasSingleBean(DeadlineWebFilter.class);
          assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
          assertThat(context.getBean(DeadlineHeader.class).name()).isEqualTo("x-envoy-expected-rq-timeout-ms");
        });
  }

  @Test
  void aNonWebApplicationStillSendsTheHeaderOnItsRequests() {
    new ApplicationContextRunner().withConfiguration(STARTER).withPropertyValues("brace.deadline.header=Request-Timeout")
        .run(context -> {
          assertThat(context).doesNotHaveBean(FilterRegistrationBean.class).doesNotHaveBean(DeadlineWebFilter.class);
          assertThat(context).hasSingleBean(RestClientCustomizer.class);
        });
  }

  @Test
  void theHeaderReadsWholeMillisecondsAndWarnsOncePerShapeOfBadValue() {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.brace.deadline");
    ListAppender<ILoggingEvent> warnings = new ListAppender<>();
    warnings.start();
    logger.addAppender(warnings);
    try {
      DeadlineHeader header = new DeadlineHeader("Request-Timeout");
      assertThat(header.read("1500").orElseThrow().budget()).isEqualTo(Duration.ofMillis(1500));
      assertThat(header.read(" 20 ").orElseThrow().budget()).isEqualTo(Duration.ofMillis(20));
      assertThat(header.read("0").orElseThrow().passed()).as("no time left at all").isTrue();
      assertThat(header.read(null)).isEmpty();
      for (String bad : new String[] {"1.5s", "2.25s", "-5", "", "soon", "99999999999999999999"}) {
        assertThat(header.read(bad)).as(bad).isEmpty();
      }
      assertThat(warnings.list).extracting(ILoggingEvent::getFormattedMessage)
          .hasSize(5).allMatch(line -> line.startsWith("ignored Request-Timeout: "));
      assertThat(header.write(Deadline.after(Duration.ofSeconds(2)))).matches("1\\d\\d\\d|2000");
    } finally {
      logger.detachAppender(warnings);
    }
  }
}
