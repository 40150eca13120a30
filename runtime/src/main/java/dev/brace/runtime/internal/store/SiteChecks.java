package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Durations;
import dev.brace.runtime.config.AttemptBounds;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.Idempotence;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.config.ConfigValues;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.support.CallDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What configuration may not do to a call site: each check compares a pattern's effective
 * settings (every layer laid over the site) with what the site fixed at compile time, and refuses
 * with a message that names the site and the layer that set what is refused.
 */
final class SiteChecks {
  private SiteChecks() {}

  /**
   * A generated wrapper computes its key from a template fixed at compile time, so configuration
   * can neither make such a site keyed nor change its key. A stack takes its key from the caller
   * with each call, so configuration may make its breaker or limiter keyed.
   *
   * @throws ConfigurationException when the configured key is not the one the site computes
   */
  static void checkKey(ConfigBuilder<?> site, InstanceConfig config, CallDefinition definition) {
    if (definition.keysFromCaller()) {
      return;
    }
    Object written = site.explicitValues().get("key");
    String siteKey = written == null ? "" : (String) written;
    String configured = (String) config.values().get("key");
    if (siteKey.equals(configured)) {
      return;
    }
    String instance = configured.isEmpty()
        ? "not keyed (configuration sets key = \"\")"
        : "keyed by configuration (key = \"" + configured + "\")";
    String siteSays = siteKey.isEmpty()
        ? "gives no key"
        : "computes its key from \"" + siteKey + "\"";
    throw new ConfigurationException(Message.KEY_MISMATCH.format(
        config.kind().description(), config.name(), instance, definition.site(), siteSays));
  }

  /**
   * A call its site marked not idempotent is never hedged, and retried only on failures that prove
   * the request never left: configuration may narrow that, never widen it. The message says which
   * layer set what is refused.
   *
   * @throws ConfigurationException when the pattern would send the request again
   */
  static void checkIdempotence(ExplainedConfig explained, CallDefinition definition) {
    Kind kind = explained.config().kind();
    if (Idempotence.sendsCopies(kind)) {
      throw new ConfigurationException(Message.NOT_IDEMPOTENT_HEDGE.format(definition.site()));
    }
    if (kind != Kind.RETRY) {
      return;
    }
    RetryConfig retry = (RetryConfig) explained.config();
    for (Class<? extends Throwable> type : retry.on()) {
      if (!Idempotence.provesNeverSent(type)) {
        throw new ConfigurationException(Message.NOT_IDEMPOTENT_RETRY.format(definition.site(), Idempotence.describeNeverSent(),
            "its on = " + ConfigValues.describe(retry.on()) + " (" + explained.source("on") + ") includes " + type.getName()));
      }
    }
    if (retry.onResult() != null) {
      throw new ConfigurationException(Message.NOT_IDEMPOTENT_RETRY.format(definition.site(), Idempotence.describeNeverSent(),
          "its onResult = " + ConfigValues.describe(retry.onResult()) + " (" + explained.source("onResult")
              + ") retries a result, which the dependency did send"));
    }
  }

  /**
   * Configuration may narrow which failures a fallback answers, never widen them past what its
   * method can take: a failure it could not receive would be a {@code ClassCastException}.
   *
   * @throws ConfigurationException when the fallback would answer a failure its method cannot take
   */
  static void checkFallbackTakes(FallbackConfig config, CallDefinition definition) {
    Class<? extends Throwable> takes = definition.fallbackTakes();
    if (takes == null) {
      return;
    }
    for (Class<? extends Throwable> type : config.on()) {
      if (!takes.isAssignableFrom(type)) {
        throw new ConfigurationException(Message.FALLBACK_WIDENED.format(
            definition.site(), definition.fallbackMethod(), takes.getName(), ConfigValues.describe(config.on()),
            type.getName(), takes.getName()));
      }
    }
  }

  /**
   * One attempt must fit in the retry's {@code maxDuration} ({@link AttemptBounds}): the processor
   * refuses that in annotations; this refuses it where configuration or a {@code Stack} made it,
   * with the same tags, one refusal per setting that does not fit, naming where it came from.
   *
   * @param configs the call's effective settings, by pattern
   * @return one refusal per setting that does not fit, in call order; empty when all fit
   */
  static List<ConfigurationException> attemptsThatDoNotFitRetry(
      Map<Kind, ExplainedConfig> configs, CallDefinition definition) {
    ExplainedConfig retry = configs.get(Kind.RETRY);
    Optional<Duration> limit = retry == null ? Optional.empty() : ((RetryConfig) retry.config()).maxDuration();
    if (limit.isEmpty()) {
      return List.of();
    }
    List<ConfigurationException> unfit = new ArrayList<>();
    String limitText = Durations.describe(limit.get());
    for (Kind kind : AttemptBounds.exceeding(limit.get(), kind -> Optional.ofNullable(configs.get(kind))
        .map(pattern -> (Duration) pattern.config().values().get(AttemptBounds.attribute(kind))))) {
      ExplainedConfig pattern = configs.get(kind);
      String attribute = AttemptBounds.attribute(kind);
      String bound = Durations.describe((Duration) pattern.config().values().get(attribute));
      unfit.add(kind == Kind.TIMEOUT
          ? new ConfigurationException(Message.MAX_DURATION_BELOW_TIMEOUT.format(definition.site(), limitText,
              retry.source("maxDuration"), bound, pattern.source(attribute)))
          : new ConfigurationException(Message.MAX_DURATION_BELOW_WAIT.format(definition.site(), limitText,
              retry.source("maxDuration"), kind.description(), bound, pattern.source(attribute))));
    }
    return unfit;
  }
}
