package dev.brace.processor;

import dev.brace.runtime.Durations;
import dev.brace.runtime.config.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Checks the patterns of one call against each other: a {@code @Retry(maxDuration)} bounds the
 * whole call, so one attempt must fit in it — its {@code @Timeout}, and the longest its rate
 * limiter or bulkhead may keep it waiting ({@code maxWait}). Otherwise the first attempt can use
 * up the limit and the retry never retries. Each value on its own is checked by the runtime's
 * builders; durations are read with the runtime's grammar.
 */
final class PatternBoundsValidator {
  private final Report report;

  PatternBoundsValidator(Report report) {
    this.report = report;
  }

  /**
   * @param patterns the call's validated patterns
   * @param callName the call, for messages
   */
  void check(List<PatternModel> patterns, String callName) {
    Optional<PatternModel> retry = find(patterns, Kind.RETRY);
    Optional<Duration> maxDuration = retry.flatMap(pattern -> duration(pattern, "maxDuration"));
    if (maxDuration.isEmpty()) {
      return;
    }
    String limit = text(retry.get(), "maxDuration");
    find(patterns, Kind.TIMEOUT).ifPresent(timeout -> duration(timeout, "value")
        .filter(value -> value.compareTo(maxDuration.get()) > 0)
        .ifPresent(value -> report.error(retry.get().site(), "maxDuration", Message.MAX_DURATION_BELOW_TIMEOUT,
            limit, callName, text(timeout, "value"))));
    for (Kind waiting : List.of(Kind.RATELIMIT, Kind.BULKHEAD)) {
      find(patterns, waiting).ifPresent(pattern -> duration(pattern, "maxWait")
          .filter(value -> value.compareTo(maxDuration.get()) > 0)
          .ifPresent(value -> report.error(retry.get().site(), "maxDuration", Message.MAX_DURATION_BELOW_WAIT,
              limit, callName, waiting.annotation().getSimpleName(), text(pattern, "maxWait"))));
    }
  }

  private static Optional<PatternModel> find(List<PatternModel> patterns, Kind kind) {
    return patterns.stream().filter(pattern -> pattern.kind() == kind).findFirst();
  }

  /** @return the attribute's effective text, as written or defaulted */
  private static String text(PatternModel pattern, String attribute) {
    return pattern.effective().stream()
        .filter(setting -> setting.attribute().equals(attribute) && setting.value() instanceof Setting.Text)
        .map(setting -> ((Setting.Text) setting.value()).text())
        .findFirst()
        .orElse("");
  }

  /** @return the attribute's duration; empty for "" (no limit), which the runtime reads as none */
  private static Optional<Duration> duration(PatternModel pattern, String attribute) {
    String text = text(pattern, attribute);
    return text.isEmpty() ? Optional.empty() : Optional.of(Durations.parse(text));
  }
}
