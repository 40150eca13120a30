package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.LambdaCalls;

import dev.brace.runtime.support.LambdaCalls.AsyncStart;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;

import dev.brace.Retry;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.RetryConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/** A registry on manual time, a delegate whose futures the test completes, and the events seen. */
final class AsyncFixture {
  static final String CALL = "X.m";

  final ManualTimeSource time = new ManualTimeSource();
  final Registry registry;
  final List<Event> events = new CopyOnWriteArrayList<>();
  final Delegate delegate = new Delegate();

  AsyncFixture() {
    this(settings -> settings);
  }

  /** @param settings what the test sets in {@code Registry.builder()}, besides the manual time */
  AsyncFixture(UnaryOperator<Registry.Builder> settings) {
    registry = settings.apply(Registry.builder().timeSource(time)).build();
    registry.subscribe(events::add);
  }

  ResilientCall resolve(UnaryOperator<CallDefinition.Builder> patterns) {
    return registry.resolve(patterns.apply(LambdaCalls.builder(CALL)).build());
  }

  /** Three attempts, 100 ms apart (multiplier 1), no jitter. */
  static RetryConfig.Builder retry() {
    return RetryConfig.builder(CALL).maxAttempts(3).delay("100ms").multiplier(1).jitter(Retry.Jitter.NONE);
  }

  void advance(String millis) {
    time.advance(Duration.ofMillis(Long.parseLong(millis)));
  }

  long eventCount(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).count();
  }

  /**
   * The future's value; fails at once rather than blocking when it is not complete (on manual
   * time every step has run by the time the test looks, and a test that blocked instead would
   * only end at a timeout).
   */
  static <T> T valueOf(CompletableFuture<T> future) {
    if (!future.isDone()) {
      throw new AssertionError("the future is not complete");
    }
    return future.join();
  }

  /** What the future failed with, exactly as stored: a CompletionException wrapper shows. */
  static Throwable failureOf(CompletableFuture<?> future) {
    if (!future.isDone()) {
      throw new AssertionError("the future is not complete");
    }
    return future.handle((value, failure) -> failure).join();
  }

  /**
   * Runs {@code step} on a thread of its own and waits up to 10 s for it. A call's steps run on
   * whichever thread moves time or completes a future; one that left the call's lock held would
   * go unnoticed on that thread (the lock is reentrant) and block this one.
   */
  static void onAnotherThread(Runnable step) {
    Thread thread = new Thread(step, "another thread");
    thread.setDaemon(true);
    thread.start();
    try {
      thread.join(10_000);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new AssertionError(interrupted);
    }
    if (thread.isAlive()) {
      throw new AssertionError("blocked for 10 s: a step on the test's thread left the call's lock held");
    }
  }

  /** A delegate that starts one pending future per attempt. */
  static final class Delegate implements AsyncStart<String> {
    final List<CompletableFuture<String>> started = new CopyOnWriteArrayList<>();

    @Override
    public CompletionStage<String> start() {
      CompletableFuture<String> attempt = new CompletableFuture<>();
      started.add(attempt);
      return attempt;
    }

    int attempts() {
      return started.size();
    }

    CompletableFuture<String> last() {
      return started.get(started.size() - 1);
    }
  }
}
