package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import org.slf4j.MDC;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * The caller's MDC and OpenTelemetry context, as they were when the call started, are what the
 * dependency sees on every attempt, what the fallback sees and what a listener sees, whichever
 * thread runs them: an {@code ABANDON} worker for a sync call, the thread that moves time (holding
 * a context of its own meanwhile) for an async call's retries. That thread has its own context back
 * afterwards.
 */
final class ContextFollowsTheCall extends Scenario {
  static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final String OTHER_TRACE = "00f067aa0ba902b700f067aa0ba902b7";
  /** What every part of the call must see. */
  static final String CALLER = "request-7/" + TRACE;
  /** What the thread that drives an async call holds meanwhile, and must hold again after. */
  static final String OTHER = "someone-else/" + OTHER_TRACE;

  @Retry(maxAttempts = 3, delay = "100ms", jitter = Retry.Jitter.NONE, on = IOException.class)
  @Timeout(value = "10s", mode = Timeout.Mode.ABANDON)
  interface Annotated extends Shape {
    @Override
    @Fallback(method = "fallback")
    String call(String key, String input) throws Exception;

    @Override
    @Fallback(method = "fallbackAsync")
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @Fallback(method = "fallback")
    Mono<String> callMono(String key, String input);

    @Override
    @Fallback(method = "fallback")
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    @Fallback(method = "fallbackFlux")
    Flux<String> callFlux(String key, String input);

    @Override
    @Fallback(method = "fallbackFlow")
    Flow<String> callFlow(String key, String input);

    default String fallback(String key, String input, Exception cause) {
      return "fallback saw " + seen();
    }

    default CompletableFuture<String> fallbackAsync(String key, String input, Exception cause) {
      return CompletableFuture.completedFuture("fallback saw " + seen());
    }

    default Flux<String> fallbackFlux(String key, String input, Exception cause) {
      return Flux.just("fallback saw " + seen());
    }

    default Flow<String> fallbackFlow(String key, String input, Exception cause) {
      return FlowKt.flowOf("fallback saw " + seen());
    }
  }

  /** Two attempts, and a sync attempt on the caller's own thread: only the layer's values make three on a worker. */
  @Retry(maxAttempts = 2, delay = "100ms", jitter = Retry.Jitter.NONE, on = IOException.class)
  @Timeout("10s")
  interface Decoy extends Shape {
    @Override
    @Fallback(method = "fallback")
    String call(String key, String input) throws Exception;

    @Override
    @Fallback(method = "fallbackAsync")
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @Fallback(method = "fallback")
    Mono<String> callMono(String key, String input);

    @Override
    @Fallback(method = "fallback")
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    @Fallback(method = "fallbackFlux")
    Flux<String> callFlux(String key, String input);

    @Override
    @Fallback(method = "fallbackFlow")
    Flow<String> callFlow(String key, String input);

    default String fallback(String key, String input, Exception cause) {
      return "fallback saw " + seen();
    }

    default CompletableFuture<String> fallbackAsync(String key, String input, Exception cause) {
      return CompletableFuture.completedFuture("fallback saw " + seen());
    }

    default Flux<String> fallbackFlux(String key, String input, Exception cause) {
      return Flux.just("fallback saw " + seen());
    }

    default Flow<String> fallbackFlow(String key, String input, Exception cause) {
      return FlowKt.flowOf("fallback saw " + seen());
    }
  }

  ContextFollowsTheCall() {
    super("context follows the call", Annotated.class, Decoy.class);
  }

  /** @return the MDC's {@code request} and the current trace id, as the running code sees them */
  static String seen() {
    return MDC.get("request") + "/" + Span.current().getSpanContext().getTraceId();
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(annotatedValues ? 3 : 2).delay("100ms").jitter(Retry.Jitter.NONE).on(IOException.class))
        .timeout(t -> t.duration("10s").mode(annotatedValues ? Timeout.Mode.ABANDON : Timeout.Mode.INTERRUPT))
        .fallback(cause -> "fallback saw " + seen());
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxAttempts(3)).timeout(call, t -> t.mode(Timeout.Mode.ABANDON));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RETRY", call, "MAX_ATTEMPTS"), "3", env("TIMEOUT", call, "MODE"), "ABANDON");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO, IO, IO);
    List<String> heard = new CopyOnWriteArrayList<>();
    cell.registry.subscribe(event -> heard.add(event.kind() + " saw " + seen()));

    String answer;
    String after;
    MDC.put("request", "request-7");
    try (Scope caller = span(TRACE)) {
      if (!cell.async()) {
        answer = cell.call("v");
        after = seen();
      } else {
        CompletableFuture<String> started = cell.start("k", "v");
        // The retries run on this thread while it drives time, holding someone else's context.
        MDC.put("request", "someone-else");
        try (Scope other = span(OTHER_TRACE)) {
          answer = cell.drive(started);
          after = seen();
        }
      }
    } finally {
      MDC.clear();
    }

    assertEquals("fallback saw " + CALLER, answer);
    assertEquals(Collections.nCopies(3, CALLER), cell.script.contexts, "every attempt saw the caller's context");
    assertEquals(cell.async() ? OTHER : CALLER, after, "the thread holds its own context again");
    assertFalse(heard.isEmpty());
    for (String event : heard) {
      assertEquals(CALLER, event.substring(event.indexOf(" saw ") + 5), "listener: " + heard);
    }
    assertEquals(3, heard.stream().filter(event -> event.startsWith("retry.attempt_failed")).count(), "events " + heard);
    assertEquals(1, heard.stream().filter(event -> event.startsWith("fallback.used")).count(), "events " + heard);
  }

  /** @return a scope in which a span of trace {@code traceId} is current */
  private static Scope span(String traceId) {
    SpanContext span = SpanContext.create(traceId, "00f067aa0ba902b7", TraceFlags.getSampled(), TraceState.getDefault());
    return Context.current().with(Span.wrap(span)).makeCurrent();
  }
}
