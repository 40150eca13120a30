package dev.brace.runtime.internal.attempt;

import dev.brace.Criticality;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.chaos.FaultInjection;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DeadlinePolicy;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.Throttling;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.Objects;

/** Collects the patterns of one call's attempts for an {@link AttemptPipeline}; any of them may be absent. */
public final class AttemptPipelineBuilder {
  final String callName;
  final TimeSource time;
  final EventBus events;
  KeyedFamily<CircuitBreakerInstance> breakers;
  KeyedFamily<RateLimiterInstance> limiters;
  SemaphoreBulkhead bulkhead;
  TimeoutPolicy timeout;
  DeadlinePolicy deadlines;
  Throttling throttling;
  Criticality.Level criticality = Criticality.Level.DEFAULT;
  boolean timesForBreaker;
  boolean judgesResults;
  String retryName;
  String hedgeName;
  FaultInjection faults;

  AttemptPipelineBuilder(String callName, TimeSource time, EventBus events) {
    this.callName = Objects.requireNonNull(callName, "callName");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
  }

  /**
   * @param breakers the breaker, or its keyed family
   * @param judgesLatency whether the breaker judges latency ({@code slowCall}): every attempt is timed
   * @return this
   */
  public AttemptPipelineBuilder breakers(KeyedFamily<CircuitBreakerInstance> breakers, boolean judgesLatency) {
    this.breakers = breakers;
    this.timesForBreaker = judgesLatency;
    return this;
  }

  /**
   * @param judgesResults whether the breaker counts results ({@code onResult}): a success is then
   *     recorded only with its result at hand
   * @return this
   */
  public AttemptPipelineBuilder breakerJudgesResults(boolean judgesResults) {
    this.judgesResults = judgesResults;
    return this;
  }

  /**
   * @param limiters the limiter, or its keyed family
   * @param throttling the judge of an adaptive limiter, null for a fixed one
   * @return this
   */
  public AttemptPipelineBuilder limiters(KeyedFamily<RateLimiterInstance> limiters, Throttling throttling) {
    this.limiters = limiters;
    this.throttling = throttling;
    return this;
  }

  /**
   * @param bulkhead the bulkhead
   * @param criticality how much the call matters to it
   * @return this
   */
  public AttemptPipelineBuilder bulkhead(SemaphoreBulkhead bulkhead, Criticality.Level criticality) {
    this.bulkhead = bulkhead;
    this.criticality = Objects.requireNonNull(criticality, "criticality");
    return this;
  }

  /** @param timeout the timeout @return this */
  public AttemptPipelineBuilder timeout(TimeoutPolicy timeout) {
    this.timeout = timeout;
    return this;
  }

  /** @param deadlines how the call takes part in deadlines; null for not at all @return this */
  public AttemptPipelineBuilder deadlines(DeadlinePolicy deadlines) {
    this.deadlines = deadlines;
    return this;
  }

  /**
   * @param retry the retry's name, or null
   * @param hedge the hedge's name, or null
   * @return this
   */
  public AttemptPipelineBuilder reportedWith(String retry, String hedge) {
    this.retryName = retry;
    this.hedgeName = hedge;
    return this;
  }

  /** @param faults the call's fault injection, or null for none @return this */
  public AttemptPipelineBuilder faults(FaultInjection faults) {
    this.faults = faults;
    return this;
  }

  /** @return the pipeline */
  public AttemptPipeline build() {
    return new AttemptPipeline(this);
  }
}
