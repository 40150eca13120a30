package dev.brace.runtime.internal.event;

import dev.brace.runtime.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Where and how loudly each event is logged. State changes are worth a WARN or INFO line; what a
 * refusing or failing dependency produces at the callers' full rate (refusals, waits, single
 * failed attempts) only DEBUG, so a storm cannot flood the logs. Events meant only for listeners
 * ({@code call.*}, {@code instance.created}) are never logged.
 *
 * <p>Every lookup is a switch or a prefix test on the kind, so checking a level allocates nothing.
 */
final class EventLog {
  private static final Logger RETRY = LoggerFactory.getLogger("dev.brace.retry");
  private static final Logger CIRCUIT = LoggerFactory.getLogger("dev.brace.circuitbreaker");
  private static final Logger RATELIMIT = LoggerFactory.getLogger("dev.brace.ratelimit");
  private static final Logger BULKHEAD = LoggerFactory.getLogger("dev.brace.bulkhead");
  private static final Logger TIMEOUT = LoggerFactory.getLogger("dev.brace.timeout");
  private static final Logger FALLBACK = LoggerFactory.getLogger("dev.brace.fallback");
  private static final Logger OTHER = LoggerFactory.getLogger("dev.brace");

  private EventLog() {}

  /** @return the level an event of this kind is logged at, or null when it is never logged */
  static Level level(String kind) {
    switch (kind) {
      case "circuit.opened":
      case "backend.unavailable":
        return Level.WARN;
      case "circuit.half_open":
      case "circuit.closed":
      case "backend.recovered":
      case "retry.exhausted":
      case "retry.budget_exhausted":
      case "timeout.exceeded":
      case "fallback.used":
        return Level.INFO;
      case "retry.attempt_failed":
      case "circuit.rejected":
      case "ratelimit.rejected":
      case "ratelimit.waited":
      case "bulkhead.rejected":
        return Level.DEBUG;
      default:
        return kind.startsWith("call.") || kind.startsWith("instance.") ? null : Level.DEBUG;
    }
  }

  /** @return whether an event of this kind would be written */
  static boolean enabled(String kind) {
    Level level = level(kind);
    return level != null && logger(kind).isEnabledForLevel(level);
  }

  /** Writes an event (already redacted) at its level, when that level is on. */
  static void write(Event event) {
    Level level = level(event.kind());
    if (level == null) {
      return;
    }
    Logger logger = logger(event.kind());
    if (logger.isEnabledForLevel(level)) {
      logger.atLevel(level).log("{} {} {}", event.kind(), event.instance(), event.attributes());
    }
  }

  /** @return the logger of the pattern named by the kind's prefix */
  static Logger logger(String kind) {
    if (kind.startsWith("retry.")) {
      return RETRY;
    } else if (kind.startsWith("circuit.")) {
      return CIRCUIT;
    } else if (kind.startsWith("ratelimit.")) {
      return RATELIMIT;
    } else if (kind.startsWith("bulkhead.")) {
      return BULKHEAD;
    } else if (kind.startsWith("timeout.")) {
      return TIMEOUT;
    } else if (kind.startsWith("fallback.")) {
      return FALLBACK;
    }
    return OTHER;
  }
}
