package dev.brace.benchmarks;

import dev.brace.runtime.EventKind;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * Checks, when a trial starts, the logging a benchmark claims to run with, so that a provider
 * that slipped into the jar (or a {@code -jvmArgsAppend} that replaced a class's {@code @Fork}
 * arguments) fails the run instead of changing what a row means.
 *
 * <p>The jar carries slf4j-simple's classes but not its service registration, so SLF4J finds no
 * provider and logs nothing unless a fork names one with {@code -Dslf4j.provider}.
 */
final class Logging {
  /** What {@link MetricsLoggingBenchmarks}' forks run with: slf4j-simple at INFO. */
  static final String SIMPLE_PROVIDER = "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider";

  static final String INFO_LEVEL = "-Dorg.slf4j.simpleLogger.defaultLogLevel=info";

  private Logging() {}

  /**
   * @throws IllegalStateException when SLF4J has a provider: the row must run with logging off
   */
  static void requireOff() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof NOPLoggerFactory)) {
      throw new IllegalStateException("this benchmark measures logging off (no SLF4J provider), but SLF4J uses "
          + factory.getClass().getName() + ": remove that provider from the benchmark jar's services");
    }
  }

  /**
   * @throws IllegalStateException unless a real provider writes INFO and leaves out DEBUG, the
   *     level of the events a call emits at the callers' rate
   */
  static void requireInfo() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    Logger events = LoggerFactory.getLogger(EventKind.RETRY_ATTEMPT_FAILED.logger());
    if (factory instanceof NOPLoggerFactory || !events.isInfoEnabled() || events.isDebugEnabled()) {
      throw new IllegalStateException("this benchmark measures SLF4J at INFO, but found "
          + factory.getClass().getName() + " with INFO " + (events.isInfoEnabled() ? "on" : "off")
          + " and DEBUG " + (events.isDebugEnabled() ? "on" : "off") + " for " + events.getName()
          + ": its forks need " + SIMPLE_PROVIDER + " " + INFO_LEVEL
          + " (a -jvmArgsAppend on the command line replaces them)");
    }
  }
}
