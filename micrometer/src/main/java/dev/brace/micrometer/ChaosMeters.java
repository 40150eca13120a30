package dev.brace.micrometer;

import io.micrometer.core.instrument.Counter;

/**
 * {@code brace.chaos.injections} (counter; {@code kind}, {@code name}, {@code what}): the attempts
 * fault injection delayed ({@code what=latency}) or failed ({@code what=fault}), by the name it is
 * configured under and what that name names ({@code kind}: {@code call} for a call's own name, else
 * the instance's kind). Fed by the typed path ({@code InstanceMeters#injected}); a rehearsal's
 * dashboard shows the injections beside what the patterns made of them. Its {@code name} is the
 * settings' name as it is, never a family's, and it carries no {@code key} tag.
 */
final class ChaosMeters {
  static final String NAME = "brace.chaos.injections";

  private ChaosMeters() {}

  /**
   * @param book where the counter is registered once, and removed with the binding
   * @param named what the name names: {@code call}, or an instance's kind key
   * @param name the fault injection's name
   * @param fault a failed attempt's counter, else a delayed one's
   * @return the counter
   */
  static Counter counter(MeterBook book, String named, String name, boolean fault) {
    String what = fault ? "fault" : "latency";
    return (Counter) book.registerOnce(NAME + '|' + named + '|' + name + '|' + what, meters -> Counter.builder(NAME)
        .description("attempts fault injection delayed or failed on purpose")
        .tags("kind", named, "name", name, "what", what)
        .register(meters));
  }
}
