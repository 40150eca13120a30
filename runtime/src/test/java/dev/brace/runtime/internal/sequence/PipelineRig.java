package dev.brace.runtime.internal.sequence;

import dev.brace.Criticality;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.KeyedFamily;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.support.CallDefinition;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * One call's attempt pipeline on manual time, for the race tests and the models that drive its
 * attempts and hedge groups directly: a {@link CountingBreaker}, a {@link CountingLimiter} over the
 * real token bucket (one token a second, burst one, {@code maxWait} 5 s), the real bulkhead and the
 * real timeout (1.5 s). The delegate returns, call after call, futures made in advance, which the
 * test completes, fails or finds cancelled. Tasks run on whichever thread moves the clock.
 */
final class PipelineRig {
  static final String CALL = "Rig.call";
  static final Duration TIMEOUT = Duration.ofMillis(1_500);

  final ManualTimeSource time = new ManualTimeSource();
  /** A fixed wall clock: event timestamps are the same in every replay of a model's interleaving. */
  final EventBus events = new EventBus(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
  final CountingBreaker breaker = new CountingBreaker("cb");
  final CountingLimiter limiter;
  final SemaphoreBulkhead bulkhead;
  final TimeoutPolicy timeout;
  final List<CompletableFuture<String>> futures = new ArrayList<>();
  final AtomicInteger delegateCalls = new AtomicInteger();
  final AtomicInteger timeoutsReported = new AtomicInteger();
  /** Runs on the attempt's thread as the delegate is called, before it returns its future. */
  volatile Runnable onDelegateCall = () -> {};
  /** Runs on the scheduling thread as soon as the call's scheduler has taken a task, before it returns. */
  volatile Runnable onScheduled = () -> {};
  /** Every task the call's scheduler took, in order: the attempts' waits and deadlines, a hedge's timers. */
  final List<ScheduledFuture<?>> scheduled = new CopyOnWriteArrayList<>();
  final CallPolicies policies;

  /**
   * @param delegateFutures how many delegate calls the test allows
   * @param tokenWait whether the limiter starts empty: the first attempt waits a second for its token
   * @param permits the bulkhead's size
   * @param more adds further steps to the call (a hedge), given the event bus; null for none
   */
  PipelineRig(int delegateFutures, boolean tokenWait, int permits, BiConsumer<CallPolicies.Builder, EventBus> more) {
    for (int i = 0; i < delegateFutures; i++) {
      futures.add(new CompletableFuture<>());
    }
    events.subscribe(event -> {
      if (event.kind().equals("timeout.exceeded")) {
        timeoutsReported.incrementAndGet();
      }
    });
    TokenBucketRateLimiter bucket = new TokenBucketRateLimiter(
        RateLimitConfig.builder("rl").permits(1).per("1s").burst(1).maxWait("5s").build(), time, events);
    if (tokenWait) {
      bucket.acquire();
    }
    limiter = new CountingLimiter(bucket);
    bulkhead = new SemaphoreBulkhead(BulkheadConfig.builder("bh").maxConcurrent(permits).build(), time::scheduler, events);
    ScheduledExecutorService watched = watchedScheduler();
    timeout = new TimeoutPolicy(
        TimeoutConfig.builder("to").duration(TIMEOUT).build(), CALL, time, watched, Runnable::run, events);
    AttemptPipeline pipeline = AttemptPipeline.builder(CALL, time, events)
        .breakers(KeyedFamily.of("cb", breaker), false)
        .limiters(KeyedFamily.of("rl", limiter), null)
        .bulkhead(bulkhead, Criticality.Level.DEFAULT)
        .timeout(timeout)
        .build();
    CallDefinition definition = CallDefinition.builder(CALL).invokes((method, target, args) -> delegate(), 0).build();
    CallPolicies.Builder steps = CallPolicies.builder(definition, time, events, () -> watched).attempts(pipeline);
    if (more != null) {
      more.accept(steps, events);
    }
    policies = steps.build();
  }

  private CompletableFuture<String> delegate() {
    int call = delegateCalls.getAndIncrement();
    onDelegateCall.run();
    if (call >= futures.size()) {
      return CompletableFuture.failedFuture(new IllegalStateException("a delegate call the test does not allow"));
    }
    return futures.get(call);
  }

  /** @return the manual scheduler, seen through {@link #scheduled} and {@link #onScheduled} */
  private ScheduledExecutorService watchedScheduler() {
    ScheduledExecutorService manual = time.scheduler();
    return (ScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ScheduledExecutorService.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(manual, args);
          } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
          }
          if (result instanceof ScheduledFuture<?> task) {
            scheduled.add(task);
            onScheduled.run();
          }
          return result;
        });
  }

  /** @return a frame of the call's own, as a driver detaches it */
  CallFrame frame() {
    CallFrame borrowed = CallFrame.enter(policies, this, null, null, null, null, 0L, 0L);
    try {
      return borrowed.detach();
    } finally {
      borrowed.exit();
    }
  }

  /** @return the context of an attempt begun on another thread than its caller's */
  static AsyncContext context() {
    AsyncContext context = AsyncContext.ofCaller();
    context.started();
    return context;
  }

  /** Moves the clock one second, running on this thread every task that falls due. */
  void oneSecondPasses() {
    time.advance(Duration.ofSeconds(1));
  }

  /** Lets every wait and deadline pass: whatever is still running ends. */
  void everythingFallsDue() {
    time.advance(Duration.ofSeconds(30));
  }

  /** @return what the pipeline holds and should not, or gave back twice: empty when every part was released once */
  String held() {
    StringBuilder held = new StringBuilder();
    if (delegateCalls.get() > futures.size()) {
      held.append("the delegate was called ").append(delegateCalls).append(" times, at most ").append(futures.size())
          .append(" expected; ");
    }
    if (breaker.doubleCompletion.get() != null) {
      held.append(breaker.doubleCompletion.get()).append("; ");
    }
    if (breaker.outstanding() != 0) {
      held.append(breaker.outstanding()).append(" breaker ticket(s) never completed; ");
    }
    if (bulkhead.inFlight() != 0) {
      held.append(bulkhead.inFlight()).append(" bulkhead permit(s) held; ");
    }
    if (limiter.unsettled() != 0) {
      held.append("tokens reserved ahead ").append(limiter.reservedAhead).append(" but used ").append(limiter.used)
          .append(" and given back ").append(limiter.givenBack).append("; ");
    }
    return held.toString();
  }
}
