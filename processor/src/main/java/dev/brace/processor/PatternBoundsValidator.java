package dev.brace.processor;

import dev.brace.runtime.Durations;
import dev.brace.runtime.config.AttemptBounds;
import dev.brace.runtime.config.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Checks the patterns of one call against each other: one attempt must fit in a {@code
 * @Retry(maxDuration)} — the rule is the runtime's ({@link AttemptBounds}), which the registry
 * applies to configuration too; this words it for the annotations. Each value on its own is
 * checked by the runtime's builders; durations are read with the runtime's grammar.
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
    List<Kind> exceeding = AttemptBounds.exceeding(maxDuration.get(),
        kind -> find(patterns, kind).flatMap(pattern -> duration(pattern, AttemptBounds.attribute(kind))));
    for (Kind kind : exceeding) {
      String bound = text(find(patterns, kind).get(), AttemptBounds.attribute(kind));
      if (kind == Kind.TIMEOUT) {
        report.error(retry.get().site(), "maxDuration", Message.MAX_DURATION_BELOW_TIMEOUT, limit, callName, bound);
      } else {
        report.error(retry.get().site(), "maxDuration", Message.MAX_DURATION_BELOW_WAIT,
            limit, callName, kind.annotation().getSimpleName(), bound);
      }
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
