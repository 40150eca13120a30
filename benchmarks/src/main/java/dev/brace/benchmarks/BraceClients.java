package dev.brace.benchmarks;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Hedge;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;

/**
 * The annotated interfaces whose generated wrappers ({@code ResilientBraceClients_RetryOnly} …)
 * {@link BraceBenchmarks} measures. Values mirror {@link Stacks}; every instance has its own
 * name so that no two benchmarks share a breaker, limiter or bulkhead.
 */
public final class BraceClients {
  private BraceClients() {}

  /** Retry alone, with the defaults (3 attempts). */
  public interface RetryOnly {
    @Retry
    String call();
  }

  /** Classic breaker: opens after 5 consecutive failures. */
  public interface ClassicBreaker {
    @CircuitBreaker(name = "bench-breaker-classic")
    String call();
  }

  /** Rate breaker: opens at a 50% failure rate over 30 s once 20 calls were seen. */
  public interface RateBreaker {
    @CircuitBreaker(name = "bench-breaker-rate", failureRate = 0.5, window = "30s", minimumCalls = 20)
    String call();
  }

  /** The rate breaker judging latency too: every attempt timed, slow ones counted in a second window. */
  public interface SlowCallBreaker {
    @CircuitBreaker(name = "bench-breaker-slow", failureRate = 0.5, window = "30s", minimumCalls = 20, slowCall = "1s")
    String call();
  }

  /** A limiter so generous it never refuses: what is measured is taking a token. */
  public interface LimiterOnly {
    @RateLimit(name = "bench-limiter", permits = 1_000_000_000, per = "1s")
    String call();
  }

  /** Bulkhead alone: 10 in flight, no waiting. */
  public interface BulkheadOnly {
    @Bulkhead(name = "bench-bulkhead", maxConcurrent = 10)
    String call();
  }

  /** An adaptive bulkhead alone (Vegas, up to 10): every call is timed and moves the limit. */
  public interface AdaptiveBulkheadOnly {
    @Bulkhead(name = "bench-bulkhead-adaptive", maxConcurrent = 10, adaptive = Bulkhead.Adaptive.VEGAS)
    String call();
  }

  /** Timeout alone, interrupting the caller's thread at the deadline. */
  public interface TimeoutOnly {
    @Timeout("1s")
    String call();
  }

  /**
   * Timeout alone, abandoning: the attempt runs on another thread (a virtual one on JDK 21+, a
   * pooled platform thread before) while the caller waits for it or for the deadline.
   */
  public interface TimeoutAbandonOnly {
    @Timeout(value = "1s", mode = Timeout.Mode.ABANDON)
    String call();
  }

  /** The four-pattern stack of Retry(CircuitBreaker(RateLimit(Bulkhead(call)))). */
  public interface FourPatterns {
    @Retry
    @CircuitBreaker(name = "bench-four")
    @RateLimit(name = "bench-four", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "bench-four", maxConcurrent = 10)
    String call();
  }

  /**
   * The four-pattern stack around a dependency that is down ({@link FailingTarget}): two attempts
   * without backoff, then the last failure is rethrown. The breaker is in rate mode over a time
   * window, as Resilience4j's counting breaker in {@link MetricsBenchmarks} is: it counts every
   * failure, but its minimum number of calls is never reached, so it never opens.
   */
  public interface FailingFourPatterns {
    @Retry(maxAttempts = 2, delay = "0ms", jitter = Retry.Jitter.NONE)
    @CircuitBreaker(name = "bench-failing", failureRate = 0.5, window = "30s", minimumCalls = Integer.MAX_VALUE)
    @RateLimit(name = "bench-failing", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "bench-failing", maxConcurrent = 10)
    String call();
  }

  /**
   * A call whose delegate makes the four-pattern call: its timeout is the deadline the inner call
   * inherits, so the inner call is bounded by it (the deadline row).
   */
  public interface OuterUnderDeadline {
    @Timeout("10s")
    String call();
  }

  /** All six: Fallback(Retry(CircuitBreaker(RateLimit(Bulkhead(Timeout(call)))))). */
  public interface SixPatterns {
    @Retry
    @CircuitBreaker(name = "bench-six")
    @RateLimit(name = "bench-six", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "bench-six", maxConcurrent = 10)
    @Timeout("1s")
    @Fallback(method = "fallback")
    String call();

    default String fallback() {
      return "fallback";
    }
  }

  /** Retry alone on an asynchronous method: the wrapper hands it to {@code ResilientCall.callAsync}. */
  public interface AsyncRetryOnly {
    @Retry
    CompletableFuture<String> call();
  }

  /** The four-pattern stack on an asynchronous method. */
  public interface AsyncFourPatterns {
    @Retry
    @CircuitBreaker(name = "bench-four-async")
    @RateLimit(name = "bench-four-async", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "bench-four-async", maxConcurrent = 10)
    CompletableFuture<String> call();
  }

  /** Retry alone on a method returning {@code Mono}: the wrapper hands it to {@code ReactorCalls.mono}. */
  public interface MonoRetryOnly {
    @Retry
    Mono<String> call();
  }

  /** The four-pattern stack on a method returning {@code Mono}. */
  public interface MonoFourPatterns {
    @Retry
    @CircuitBreaker(name = "bench-four-mono")
    @RateLimit(name = "bench-four-mono", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "bench-four-mono", maxConcurrent = 10)
    Mono<String> call();
  }

  /**
   * Retry alone on a Kotlin {@code suspend} function: declared in Java, its trailing
   * {@link Continuation} is what makes it one (as kapt shows a Kotlin {@code suspend fun} to the
   * processor), so the wrapper hands it to brace-kotlin's {@code CoroutineCalls.suspending}.
   */
  public interface SuspendRetryOnly {
    @Retry
    Object call(Continuation<? super String> continuation);
  }

  /** The four-pattern stack on a {@code suspend} function. */
  public interface SuspendFourPatterns {
    @Retry
    @CircuitBreaker(name = "bench-four-suspend")
    @RateLimit(name = "bench-four-suspend", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "bench-four-suspend", maxConcurrent = 10)
    Object call(Continuation<? super String> continuation);
  }

  /** Retry alone on a method returning a Kotlin {@code Flow}: one call per collection, as a {@code Flux}. */
  public interface FlowRetryOnly {
    @Retry
    Flow<String> call();
  }

  /** The four-pattern stack on a method returning a {@code Flow}. */
  public interface FlowFourPatterns {
    @Retry
    @CircuitBreaker(name = "bench-four-flow")
    @RateLimit(name = "bench-four-flow", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "bench-four-flow", maxConcurrent = 10)
    Flow<String> call();
  }

  /**
   * A hedge alone on an asynchronous method. The target answers at once, so the delay never passes
   * and no hedge starts: what is measured is what hedging costs a call that needs none (its timer
   * armed and cancelled, one attempt walked through a driver of its own).
   */
  public interface AsyncHedgeOnly {
    @Hedge(delay = "100ms")
    CompletableFuture<String> call();
  }

  /**
   * A breaker {@link EmissionBenchmarks} holds OPEN, so that every call is refused and the refusal
   * reaches the event boundary. The reset timeout outlasts any run, so no probe is ever let in.
   */
  public interface RejectingBreaker {
    @CircuitBreaker(name = "bench-rejecting", failureThreshold = 1, resetTimeout = "1h")
    String call();
  }
}
