package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Every way to complete a call's future tells the driver, once per completion that took effect. */
class CallFutureTest {
  private final AtomicInteger told = new AtomicInteger();
  private final CallFuture<String> future = new CallFuture<>(told::incrementAndGet);

  @Test
  void completingWithAValueTellsOnceAndAFurtherCompletionDoesNot() {
    assertTrue(future.complete("ok"));
    assertFalse(future.complete("again"));
    assertFalse(future.completeExceptionally(new IOException()));
    assertFalse(future.cancel(true));

    assertEquals(1, told.get());
    assertEquals("ok", future.join());
  }

  @Test
  void completingExceptionallyTells() {
    assertTrue(future.completeExceptionally(new IOException("down")));

    assertEquals(1, told.get());
    assertTrue(future.isCompletedExceptionally());
  }

  @Test
  void cancellingTells() {
    assertTrue(future.cancel(false));

    assertEquals(1, told.get());
    assertTrue(future.isCancelled());
  }

  @Test
  void obtrudingTellsEachTime() {
    future.complete("ok");
    future.obtrudeValue("forced");
    assertEquals("forced", future.join());
    future.obtrudeException(new IOException("forced"));

    assertEquals(3, told.get());
    assertThrows(ExecutionException.class, future::get);
  }

  @Test
  void completingAsynchronouslyGoesThroughCompleteAndTells() {
    assertSame(future, future.completeAsync(() -> "later", Runnable::run));

    assertEquals("later", future.join());
    assertEquals(1, told.get());
  }

  @Test
  void aSupplierThatThrowsCompletesItExceptionallyAndTells() {
    IllegalStateException broken = new IllegalStateException("broken");
    future.completeAsync(() -> {
      throw broken;
    }, Runnable::run);

    ExecutionException thrown = assertThrows(ExecutionException.class, future::get);
    assertSame(broken, thrown.getCause());
    assertEquals(1, told.get());
  }

  @Test
  void timingOutTellsOnTheThreadThatTimesItOut() throws InterruptedException {
    CountDownLatch toldOnce = new CountDownLatch(1);
    CallFuture<String> timed = new CallFuture<>(toldOnce::countDown);

    timed.orTimeout(1, TimeUnit.MILLISECONDS);

    assertTrue(toldOnce.await(10, TimeUnit.SECONDS), "the timeout completed it through completeExceptionally");
    assertInstanceOf(TimeoutException.class, assertThrows(ExecutionException.class, timed::get).getCause());
  }

  @Test
  void completingAsynchronouslyWithoutASupplierOrAnExecutorIsRefused() {
    assertThrows(NullPointerException.class, () -> future.completeAsync(null, Runnable::run));
    assertThrows(NullPointerException.class, () -> future.completeAsync(() -> "x", null));
    assertEquals(0, told.get());
  }

  @Test
  void aFutureDependentOnItIsAPlainOne() {
    CompletableFuture<Integer> length = future.thenApply(String::length);

    assertEquals(CompletableFuture.class, length.getClass());
  }
}
