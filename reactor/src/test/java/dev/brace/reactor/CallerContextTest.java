package dev.brace.reactor;

import static dev.brace.reactor.ReactiveFixture.flux;
import static dev.brace.reactor.ReactiveFixture.mono;
import static dev.brace.reactor.ReactiveFixture.retry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.ResilientCall;
import io.micrometer.context.ContextRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.test.subscriber.TestSubscriber;

/**
 * The caller's MDC and context-propagation values are what every part of a reactive call sees,
 * wherever it runs — a retry on Brace's scheduler, an outcome signalled on one of Reactor's
 * threads, the event listeners there — and nothing of them stays on those threads.
 */
class CallerContextTest {
  private static final String ACCESSOR = "brace.reactor.test.tenant";
  private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

  private final Scheduler reactorThread = Schedulers.newSingle("reactor-signals");

  @BeforeEach
  void registerTheTenant() {
    ContextRegistry.getInstance().registerThreadLocalAccessor(ACCESSOR, TENANT);
  }

  @AfterEach
  void cleanUp() {
    ContextRegistry.getInstance().removeThreadLocalAccessor(ACCESSOR);
    reactorThread.dispose();
    MDC.clear();
    TENANT.remove();
  }

  private static String seen() {
    return MDC.get("request") + "/" + TENANT.get();
  }

  private static void enterRequest() {
    MDC.put("request", "r-1");
    TENANT.set("acme");
  }

  private static void leaveRequest() {
    MDC.clear();
    TENANT.remove();
  }

  @Test
  void aMonosRetryOnTheSchedulerSeesTheSubscribersContextAndLeavesNothingBehind() {
    ReactiveFixture fixture = new ReactiveFixture();
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    List<String> attempts = new CopyOnWriteArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> subscriber = TestSubscriber.create();

    enterRequest();
    mono(call, () -> {
      attempts.add(seen());
      return calls.incrementAndGet() == 1 ? Mono.error(new IOException("503")) : Mono.just("ok");
    }).subscribe(subscriber);
    leaveRequest();
    // The scheduler's task runs here, on a thread that holds nothing of the request now.
    fixture.advance(100);

    assertEquals(List.of("ok"), subscriber.getReceivedOnNext());
    assertEquals(List.of("r-1/acme", "r-1/acme"), attempts);
    assertEquals("null/null", seen(), "restored for the step, put back after it");
  }

  @Test
  void aMonoOutcomeSignalledOnAReactorThreadIsHandledInTheCallersContext() {
    Registry registry = Registry.builder().build();
    List<String> listenerSaw = new CopyOnWriteArrayList<>();
    registry.subscribe(event -> {
      if (event.kind().equals("retry.attempt_failed")) {
        listenerSaw.add(Thread.currentThread().getName() + " " + seen());
      }
    });
    ResilientCall call = registry.resolve(ReactiveFixture.definition(immediateRetry()));
    List<String> attempts = new CopyOnWriteArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    CountDownLatch subscribed = new CountDownLatch(1);
    TestSubscriber<String> subscriber = TestSubscriber.create();

    enterRequest();
    mono(call, () -> {
      attempts.add(seen());
      return calls.incrementAndGet() == 1
          ? Mono.<String>fromCallable(() -> {
            // Fails only once the subscription has returned: the failure is signalled on this thread.
            subscribed.await();
            throw new IOException("503");
          }).subscribeOn(reactorThread)
          : Mono.just("ok");
    }).subscribe(subscriber);
    leaveRequest();
    subscribed.countDown();
    subscriber.block(Duration.ofSeconds(10));

    assertEquals(List.of("ok"), subscriber.getReceivedOnNext());
    assertEquals(List.of("r-1/acme", "r-1/acme"), attempts, "the retry ran on the Reactor thread, in the caller's context");
    assertEquals(1, listenerSaw.size());
    assertTrue(listenerSaw.get(0).startsWith("reactor-signals"), listenerSaw.get(0));
    assertTrue(listenerSaw.get(0).endsWith(" r-1/acme"), listenerSaw.get(0));
    assertEquals("null/null", onReactorThread(), "nothing of the caller stays on Reactor's thread");
  }

  @Test
  void aFluxOutcomeSignalledOnAReactorThreadIsHandledInTheCallersContext() {
    Registry registry = Registry.builder().build();
    ResilientCall call = registry.resolve(ReactiveFixture.definition(immediateRetry()));
    List<String> attempts = new CopyOnWriteArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> subscriber = TestSubscriber.create();

    enterRequest();
    flux(call, () -> {
      attempts.add(Thread.currentThread().getName() + " " + seen());
      return calls.incrementAndGet() == 1
          ? Flux.<String>error(new IOException("503")).publishOn(reactorThread)
          : Flux.just("a", "b");
    }).subscribe(subscriber);
    leaveRequest();
    subscriber.block(Duration.ofSeconds(10));

    assertEquals(List.of("a", "b"), subscriber.getReceivedOnNext());
    assertEquals(2, attempts.size());
    assertTrue(attempts.get(1).startsWith("reactor-signals"), attempts.get(1));
    assertTrue(attempts.get(1).endsWith(" r-1/acme"), attempts.get(1));
    assertEquals("null/null", onReactorThread(), "nothing of the caller stays on Reactor's thread");
  }

  @Test
  void aFluxRetryOnTheSchedulerSeesTheSubscribersContext() {
    ReactiveFixture fixture = new ReactiveFixture();
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    List<String> attempts = new CopyOnWriteArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> subscriber = TestSubscriber.create();

    enterRequest();
    flux(call, () -> {
      attempts.add(seen());
      return calls.incrementAndGet() == 1 ? Flux.<String>error(new IOException("503")) : Flux.just("ok");
    }).subscribe(subscriber);
    leaveRequest();
    fixture.advance(100);

    assertEquals(List.of("r-1/acme", "r-1/acme"), attempts);
    assertNull(MDC.get("request"));
  }

  /** Retries at once, so the next attempt starts on the thread that signalled the failure. */
  private static RetryConfig.Builder immediateRetry() {
    return RetryConfig.builder(ReactiveFixture.CALL).maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE);
  }

  private String onReactorThread() {
    return Mono.fromCallable(CallerContextTest::seen).subscribeOn(reactorThread).block(Duration.ofSeconds(10));
  }
}
