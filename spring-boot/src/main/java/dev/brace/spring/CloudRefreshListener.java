package dev.brace.spring;

import dev.brace.runtime.ConfigurationException;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;

/**
 * Reconfigures the registry when Spring Cloud reports changed keys among which is a Brace one. A
 * refused reconfiguration is logged and leaves every instance as it was: the refresh itself has
 * happened and must not fail for it.
 */
final class CloudRefreshListener implements ApplicationListener<EnvironmentChangeEvent> {
  private static final Logger LOG = LoggerFactory.getLogger("dev.brace.spring");

  private final BraceReconfigurer reconfigurer;

  CloudRefreshListener(BraceReconfigurer reconfigurer) {
    this.reconfigurer = Objects.requireNonNull(reconfigurer, "reconfigurer");
  }

  @Override
  public void onApplicationEvent(EnvironmentChangeEvent event) {
    if (event.getKeys().stream().noneMatch(key -> key.toLowerCase(Locale.ROOT).startsWith("brace"))) {
      return;
    }
    try {
      reconfigurer.reconfigure();
    } catch (ConfigurationException refused) {
      LOG.error("Brace kept its settings after the environment changed: {}", refused.getMessage());
    }
  }
}
