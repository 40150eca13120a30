package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.spi.driver.DelegateCall;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.LambdaCalls;
import io.micrometer.context.ContextRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A synchronous hedge's worker that cannot put its own context back after its attempt, however that attempt ended. */
class SyncHedgeContextCloseTest {
  private static final String CALL = "X.m";
  private static final String WORKER = "hedge-context-worker";
  private static final String ACCESSOR = "brace-test-hedge-close-tenant";

  /** A context library whose reset fails on the hedge's worker threads, and only there. */
  private final IllegalStateException cannotReset = new IllegalStateException("tenant store unavailable");
  private final ThreadLocal<String> tenant = new ThreadLocal<>();
  /** What ended the worker's thread, once it has ended by a throw. */
  private final CompletableFuture<Throwable> leftTheWorker = new CompletableFuture<>();
  private final Executor workers = task -> {
    Thread worker = new Thread(task, WORKER);
    worker.setDaemon(true);
    worker.setUncaughtExceptionHandler((thread, thrown) -> leftTheWorker.complete(thrown));
    worker.start();
  };

  SyncHedgeContextCloseTest() {
    ContextRegistry.getInstance().registerThreadLocalAccessor(ACCESSOR, tenant::get, tenant::set, () -> {
      if (Thread.currentThread().getName().equals(WORKER)) {
        throw cannotReset;
      }
      tenant.remove();
    });
  }

  @AfterEach
  void removeAccessor() {
    ContextRegistry.getInstance().removeThreadLocalAccessor(ACCESSOR);
  }

  /** The hedged call, made on a thread of its own whose context names a tenant. */
  private CompletableFuture<Object> callWithATenant(CallPolicies policies, DelegateCall attempt) {
    CompletableFuture<Object> call = new CompletableFuture<>();
    Thread caller = new Thread(() -> {
      tenant.set("acme");
      try {
        call.complete(SyncHedgeGroup.run(policies, CallKeys.NONE, attempt));
      } catch (Throwable failure) {
        call.completeExceptionally(failure);
      }
    }, "caller");
    caller.setDaemon(true);
    caller.start();
    return call;
  }

  /**
   * The attempt answered; putting the worker's own context back then throws. The attempt still
   * counts as ended, so the caller, which returns only once every attempt has, gets the answer.
   */
  @Test
  void aWorkerThatFailsToPutItsOwnContextBackStillLetsTheCallReturn() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    EventBus bus = new EventBus(Clock.systemUTC());
    HedgePolicy policy = new HedgePolicy(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1).build(), CALL, bus, null, false);
    CallPolicies policies = CallPolicies.builder(LambdaCalls.builder(CALL).build(), clock, bus, clock::scheduler)
        .hedge(policy, workers).build();

    CompletableFuture<Object> call = callWithATenant(policies, () -> "answer " + tenant.get());

    assertEquals("answer acme", call.get(10, TimeUnit.SECONDS), "the caller returned with the attempt's answer");
    assertSame(cannotReset, leftTheWorker.get(10, TimeUnit.SECONDS), "the library's failure surfaces on the worker");
  }

  /**
   * The attempt's failure could not be recorded (the breaker threw), so the attempt fails with
   * that; putting the worker's own context back then throws too. The attempt still counts as
   * ended, and the caller returns with the breaker's failure.
   */
  @Test
  void aWorkerWhoseAttemptThrewAndThatFailsToPutItsOwnContextBackStillLetsTheCallReturn() throws Exception {
    IllegalStateException cannotRecord = new IllegalStateException("breaker store unavailable");
    PipelineRig rig = new PipelineRig(0, false, 1, (steps, events) -> steps.hedge(
        new HedgePolicy(HedgeConfig.builder(PipelineRig.CALL).delay("100ms").maxHedges(1).on(IOException.class).build(),
            PipelineRig.CALL, events, null, false),
        workers));
    rig.breaker.onRecord = () -> {
      throw cannotRecord;
    };

    CompletableFuture<Object> call = callWithATenant(rig.policies, () -> {
      throw new IOException("down");
    });

    ExecutionException ended = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
    assertSame(cannotRecord, ended.getCause(), "the caller returned with the attempt's failure");
    assertSame(cannotReset, leftTheWorker.get(10, TimeUnit.SECONDS), "the library's failure surfaces on the worker");
  }
}
