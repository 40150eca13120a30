package dev.brace.runtime.internal.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brace.runtime.TimeSource;
import io.micrometer.context.ContextRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * What a call carries to another thread: the MDC, the OpenTelemetry context and every registered
 * context-propagation accessor, installed for the duration and the thread's own put back after.
 */
class CallContextTest {
  static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
  private static final String ACCESSOR = "brace-test-tenant";
  private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

  private final ExecutorService pool = Executors.newSingleThreadExecutor();

  @AfterEach
  void cleanUp() throws InterruptedException {
    MDC.clear();
    TENANT.remove();
    ContextRegistry.getInstance().removeThreadLocalAccessor(ACCESSOR);
    pool.shutdownNow();
    pool.awaitTermination(5, TimeUnit.SECONDS);
  }

  /** @return the span context of a span with trace {@link #TRACE}, current until the scope closes */
  static Scope traced() {
    SpanContext span = SpanContext.create(TRACE, "b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());
    return Context.current().with(Span.wrap(span)).makeCurrent();
  }

  /** @return what the current thread holds: MDC request, trace id, tenant */
  static List<String> seen() {
    return List.of(String.valueOf(MDC.get("request")), Span.current().getSpanContext().getTraceId(), String.valueOf(TENANT.get()));
  }

  @Test
  void anotherThreadSeesTheCallersContextAndGetsItsOwnBack() throws Exception {
    ContextRegistry.getInstance().registerThreadLocalAccessor(ACCESSOR, TENANT);
    // The pool thread's own context, which the call's context replaces only for its duration.
    pool.submit(() -> {
      MDC.put("request", "pool's own");
      TENANT.set("pool tenant");
    }).get();

    CallContext captured;
    MDC.put("request", "r-1");
    TENANT.set("acme");
    try (Scope ignored = traced()) {
      captured = CallContext.capture();
    }

    List<List<String>> onPool = new CopyOnWriteArrayList<>();
    pool.submit(captured.wrap(() -> onPool.add(seen()))).get();
    pool.submit(() -> onPool.add(seen())).get();

    assertEquals(List.of("r-1", TRACE, "acme"), onPool.get(0), "during the call's part");
    assertEquals(List.of("pool's own", "00000000000000000000000000000000", "pool tenant"), onPool.get(1), "after it");
  }

  @Test
  void aCallerWithNothingClearsWhatTheOtherThreadHoldsForTheDuration() throws Exception {
    ContextRegistry.getInstance().registerThreadLocalAccessor(ACCESSOR, TENANT);
    CallContext nothing = CallContext.capture();
    List<List<String>> seen = new CopyOnWriteArrayList<>();

    pool.submit(() -> {
      MDC.put("request", "pool's own");
      TENANT.set("pool tenant");
      try (Scope ignored = traced(); CallContext.Scope restored = nothing.restore()) {
        seen.add(seen());
      }
      seen.add(seen());
    }).get();

    assertEquals(List.of("null", "00000000000000000000000000000000", "null"), seen.get(0));
    assertEquals(List.of("pool's own", "00000000000000000000000000000000", "pool tenant"), seen.get(1),
        "the MDC and the tenant come back; the trace scope closed after the restore's");
  }

  @Test
  void nothingToCarryIsOneSharedInstance() {
    assertSame(CallContext.EMPTY, CallContext.capture());
    MDC.put("request", "r-2");
    MDC.remove("request");
    assertSame(CallContext.EMPTY, CallContext.capture(), "an MDC emptied again carries nothing");
  }

  @Test
  void restoringAContextWithOnlyADeadlineToInstallReusesTheThreadsScopeAndPutsEachDeadlineBack() throws Exception {
    List<String> seen = pool.submit(() -> {
      List<String> steps = new ArrayList<>();
      CurrentDeadline thread = CurrentDeadline.ofThisThread();
      TimeSource clock = TimeSource.system();
      thread.push(clock, 1_000, 10, null);
      try {
        CallContext.Scope outer = CallContext.EMPTY.restore();
        steps.add("outer: " + thread.present());
        CallContext.Scope inner = CallContext.EMPTY.restore();
        assertSame(outer, inner, "nothing but the deadline to put back: the thread's one scope, not a new one");
        inner.close();
        steps.add("inner closed: " + thread.present());
        outer.close();
        steps.add("outer closed: " + thread.present() + " " + (thread.clock() == clock) + " " + thread.end());

        MDC.put("request", "r-4");
        CallContext withMdc = CallContext.capture();
        MDC.clear();
        try (CallContext.Scope carrying = withMdc.restore()) {
          assertNotSame(outer, carrying, "a scope with an MDC to put back is one of its own");
          steps.add("carrying: " + MDC.get("request"));
        }
        steps.add("after: " + MDC.get("request"));
      } finally {
        thread.pop();
      }
      return steps;
    }).get();

    assertEquals(List.of("outer: false", "inner closed: false", "outer closed: true true 1000", "carrying: r-4", "after: null"),
        seen);
  }

  @Test
  void aCallableRunsInTheContextAndReturnsItsValue() throws Exception {
    MDC.put("request", "r-3");
    CallContext captured = CallContext.capture();
    MDC.clear();

    CompletableFuture<String> seenOnPool = new CompletableFuture<>();
    seenOnPool.complete(pool.submit(captured.wrap(() -> MDC.get("request"))).get());

    assertEquals("r-3", seenOnPool.get());
    assertNull(pool.submit(() -> MDC.get("request")).get());
  }
}
