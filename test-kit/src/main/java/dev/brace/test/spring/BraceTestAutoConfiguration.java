package dev.brace.test.spring;

import dev.brace.runtime.Registry;
import dev.brace.spring.BraceAutoConfiguration;
import dev.brace.spring.BraceReconfigurer;
import dev.brace.spring.BraceRegistryCustomizer;
import dev.brace.test.BraceTestKit;
import dev.brace.test.TestTime;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * The application's registry on a test's manual time, and the kit over it. Imported by {@link
 * AutoConfigureBraceTest}, never by itself: an application's own context does not see it.
 */
@AutoConfiguration(before = BraceAutoConfiguration.class)
public class BraceTestAutoConfiguration {
  /** The property source that carries the kit's controls (fault injection) into Spring's environment. */
  static final String CONTROLS_SOURCE = "braceTestKitControls";

  /** Created by Spring. */
  public BraceTestAutoConfiguration() {}

  /** @return the context's time: one for its registry and its kit */
  @Bean
  public TestTime braceTestTime() {
    return new TestTime();
  }

  /**
   * Applied last, so that the test's time wins over a clock an application customizer sets.
   *
   * @param time the context's time
   * @return the customizer that puts the starter's registry on it
   */
  @Bean
  @Order(Ordered.LOWEST_PRECEDENCE)
  public BraceRegistryCustomizer braceTestTimeCustomizer(TestTime time) {
    return time::applyTo;
  }

  /**
   * @param registry the application's registry
   * @param time the time it runs on
   * @param environment Spring's environment, where the kit's fault injection settings go
   * @param reconfigurer what applies them to the registry
   * @return the kit, recording from the context's start
   */
  @Bean(destroyMethod = "close")
  public BraceTestKit braceTestKit(
      Registry registry, TestTime time, ConfigurableEnvironment environment, BraceReconfigurer reconfigurer) {
    return BraceTestKit.attach(registry, time, added -> {
      MutablePropertySources sources = environment.getPropertySources();
      sources.remove(CONTROLS_SOURCE);
      if (!added.isEmpty()) {
        sources.addFirst(new MapPropertySource(CONTROLS_SOURCE, Map.copyOf(added)));
      }
      reconfigurer.reconfigure();
    });
  }
}
