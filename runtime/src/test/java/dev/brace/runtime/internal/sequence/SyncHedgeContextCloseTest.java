package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.LambdaCalls;
import io.micrometer.context.ContextRegistry;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A synchronous hedge's worker that cannot put its own context back after its attempt. */
class SyncHedgeContextCloseTest {
  private static final String CALL = "X.m";
  private static final String WORKER = "hedge-context-worker";

  /**
   * The attempt answered; putting the worker's own context back then throws. The attempt still
   * counts as ended, so the caller, which returns only once every attempt has, gets the answer.
   */
  @Test
  void aWorkerThatFailsToPutItsOwnContextBackStillLetsTheCallReturn() throws Exception {
    IllegalStateException cannotReset = new IllegalStateException("tenant store unavailable");
    ThreadLocal<String> tenant = new ThreadLocal<>();
    String key = "brace-test-hedge-close-tenant";
    ContextRegistry.getInstance().registerThreadLocalAccessor(key, tenant::get, tenant::set, () -> {
      if (Thread.currentThread().getName().equals(WORKER)) {
        throw cannotReset;
      }
      tenant.remove();
    });
    try {
      CompletableFuture<Throwable> leftTheWorker = new CompletableFuture<>();
      Executor workers = task -> {
        Thread worker = new Thread(task, WORKER);
        worker.setDaemon(true);
        worker.setUncaughtExceptionHandler((thread, thrown) -> leftTheWorker.complete(thrown));
        worker.start();
      };
      ManualTimeSource clock = new ManualTimeSource();
      EventBus bus = new EventBus(Clock.systemUTC());
      HedgePolicy policy = new HedgePolicy(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1).build(), CALL, bus, null, false);
      CallSequence sequence = CallSequence.builder(LambdaCalls.builder(CALL).build(), clock, bus, clock::scheduler)
          .hedge(policy, workers).build();

      CompletableFuture<Object> call = new CompletableFuture<>();
      Thread caller = new Thread(() -> {
        tenant.set("acme");
        try {
          call.complete(SyncHedgeGroup.run(sequence, CallKeys.NONE, () -> "answer " + tenant.get()));
        } catch (Throwable failure) {
          call.completeExceptionally(failure);
        }
      }, "caller");
      caller.setDaemon(true);
      caller.start();

      assertEquals("answer acme", call.get(10, TimeUnit.SECONDS), "the caller returned with the attempt's answer");
      assertSame(cannotReset, leftTheWorker.get(10, TimeUnit.SECONDS), "the library's failure surfaces on the worker");
    } finally {
      ContextRegistry.getInstance().removeThreadLocalAccessor(key);
    }
  }
}
