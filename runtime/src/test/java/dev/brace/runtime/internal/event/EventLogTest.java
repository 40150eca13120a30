package dev.brace.runtime.internal.event;

import dev.brace.runtime.EventKind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

/** What each logger writes, at which level, captured with a Logback list appender. */
class EventLogTest {
  private final EventBus bus = new EventBus(Clock.systemUTC());
  private final Map<Logger, Level> touched = new LinkedHashMap<>();

  /** Raises a logger to {@code level} and captures what it writes; undone after the test. */
  private ListAppender<ILoggingEvent> capture(String loggerName, Level level) {
    Logger logger = (Logger) LoggerFactory.getLogger(loggerName);
    touched.putIfAbsent(logger, logger.getLevel());
    logger.setLevel(level);
    logger.setAdditive(false);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    return appender;
  }

  @AfterEach
  void restoreLevels() {
    touched.forEach((logger, level) -> {
      logger.setLevel(level);
      logger.setAdditive(true);
      logger.detachAndStopAllAppenders();
    });
  }

  @ParameterizedTest(name = "{0} -> {1} at {2}")
  @CsvSource({
    "retry.attempt_failed, dev.brace.retry, DEBUG",
    "retry.exhausted, dev.brace.retry, INFO",
    "retry.budget_exhausted, dev.brace.retry, INFO",
    "circuit.opened, dev.brace.circuitbreaker, WARN",
    "circuit.half_open, dev.brace.circuitbreaker, INFO",
    "circuit.closed, dev.brace.circuitbreaker, INFO",
    "circuit.rejected, dev.brace.circuitbreaker, DEBUG",
    "ratelimit.rejected, dev.brace.ratelimit, DEBUG",
    "ratelimit.waited, dev.brace.ratelimit, DEBUG",
    "bulkhead.rejected, dev.brace.bulkhead, DEBUG",
    "timeout.exceeded, dev.brace.timeout, INFO",
    "fallback.used, dev.brace.fallback, INFO",
  })
  void eachKindIsWrittenOnceToItsPatternsLoggerAtItsLevel(String kind, String loggerName, String level) {
    ListAppender<ILoggingEvent> lines = capture(loggerName, Level.DEBUG);

    assertTrue(bus.enabled(EventKind.of(kind)));
    bus.emit(EventKind.of(kind), "recs-api", "message", "GET https://u:p@host/x?token=abc failed");

    assertEquals(1, lines.list.size());
    ILoggingEvent line = lines.list.get(0);
    assertEquals(Level.toLevel(level, null), line.getLevel());
    assertEquals(kind + " recs-api {message=GET https://host/x?token=REDACTED failed}", line.getFormattedMessage());
  }

  @Test
  void aRefusalStormStaysOutOfAnInfoLog() {
    ListAppender<ILoggingEvent> lines = capture("dev.brace.circuitbreaker", Level.INFO);

    assertFalse(bus.enabled(EventKind.of("circuit.rejected")), "nothing would see it, so nothing is built");
    assertTrue(bus.enabled(EventKind.of("circuit.opened")));
    bus.emit(EventKind.of("circuit.rejected"), "recs-api", "state", "OPEN");
    bus.emit(EventKind.of("circuit.opened"), "recs-api");

    assertEquals(1, lines.list.size());
    assertEquals(Level.WARN, lines.list.get(0).getLevel());
  }

  @Test
  void withLoggingOffAndNoListenerNothingIsEnabled() {
    capture("dev.brace", Level.OFF);
    for (String kind : List.of("retry.attempt_failed", "circuit.opened", "ratelimit.rejected",
        "bulkhead.rejected", "timeout.exceeded", "fallback.used", "call.succeeded", "instance.created")) {
      assertFalse(bus.enabled(EventKind.of(kind)), kind);
    }
  }

  @Test
  void checkingADisabledKindAllocatesNothing() {
    capture("dev.brace", Level.OFF);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    boolean any = false;
    for (int i = 0; i < 10_000; i++) {
      any |= bus.enabled(EventKind.of("circuit.rejected"));
    }
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < 100_000; i++) {
      any |= bus.enabled(EventKind.of("circuit.rejected")) | bus.enabled(EventKind.of("retry.attempt_failed")) | bus.enabled(EventKind.of("call.succeeded"));
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;

    assertFalse(any);
    // One object per check would be at least 4.8 MB; a few KB are one-off (compilation, class init).
    assertTrue(allocated < 64 * 1024, "300,000 checks allocated " + allocated + " bytes");
  }

  @Test
  void listenerOnlyKindsAreNeverLogged() {
    ListAppender<ILoggingEvent> lines = capture("dev.brace", Level.DEBUG);

    assertFalse(bus.enabled(EventKind.of("call.succeeded")));
    bus.emit(EventKind.of("call.succeeded"), "Client.get");

    assertEquals(List.of(), lines.list);
  }

  @Test
  void aThrowingListenerIsLoggedAndTheOthersStillHearTheEvent() {
    ListAppender<ILoggingEvent> lines = capture(EventBus.class.getName(), Level.WARN);
    List<String> heard = new ArrayList<>();
    bus.subscribe(event -> {
      throw new IllegalStateException("listener bug");
    });
    bus.subscribe(event -> heard.add(event.kind()));

    bus.emit(EventKind.of("circuit.closed"), "recs-api");

    assertEquals(List.of("circuit.closed"), heard);
    assertEquals(1, lines.list.size());
    assertEquals("listener bug", lines.list.get(0).getThrowableProxy().getMessage());
  }
}
