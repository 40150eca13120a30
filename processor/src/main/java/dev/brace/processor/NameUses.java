package dev.brace.processor;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The system-scoped names (breakers, limiters, bulkheads) seen so far in this compilation, across
 * rounds, with their settings: one name is one shared instance, so two sites must agree.
 */
final class NameUses {

  /**
   * The first site that used a name.
   *
   * @param settings its settings, as compared
   * @param where where it is written
   */
  record Use(String settings, String where) {}

  private final Map<String, Use> uses = new HashMap<>();

  /**
   * Records a use of a system-scoped name.
   *
   * @param pattern the pattern at this site
   * @return the earlier use with different settings, if there is one
   */
  Optional<Use> claim(PatternModel pattern) {
    Use use = new Use(pattern.effectiveSettings(), PatternReader.where(pattern.site()));
    Use first = uses.putIfAbsent(pattern.kind() + "/" + pattern.name(), use);
    return first == null || first.settings().equals(use.settings()) ? Optional.empty() : Optional.of(first);
  }
}
