package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.internal.attempt.KeyedFamily;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.internal.policy.RetryBudget;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.function.Function;

/**
 * Where a call being resolved obtains its shared instances by name: the registry's own ({@link
 * InstanceCatalog}), or those a planned reconfiguration would leave ({@link InstanceCatalog.Plan}).
 * Each method returns the instance of the settings' name, made with {@code create} on first use.
 *
 * <p>Parameters of every method: {@code written}, the pattern as the site wrote it; {@code
 * explained}, the site's effective settings with where each came from; {@code site}, where it is
 * used, for messages; {@code create}, what makes the instance from its settings.
 */
interface InstanceSource {
  /** @throws ConfigurationException when an earlier site has other effective settings for the name */
  KeyedFamily<CircuitBreakerInstance> obtainBreakers(ConfigBuilder<?> written, ExplainedConfig explained, String site,
      Function<InstanceConfig, KeyedFamily<CircuitBreakerInstance>> create);

  /** @throws ConfigurationException when an earlier site has other effective settings for the name */
  KeyedFamily<RateLimiterInstance> obtainLimiters(ConfigBuilder<?> written, ExplainedConfig explained, String site,
      Function<InstanceConfig, KeyedFamily<RateLimiterInstance>> create);

  /** @throws ConfigurationException when an earlier site has other effective settings for the name */
  SemaphoreBulkhead obtainBulkhead(ConfigBuilder<?> written, ExplainedConfig explained, String site,
      Function<InstanceConfig, SemaphoreBulkhead> create);

  /** @throws ConfigurationException when an earlier site has other effective settings for the name */
  RetryBudget obtainBudget(ConfigBuilder<?> written, ExplainedConfig explained, String site,
      Function<InstanceConfig, RetryBudget> create);
}
