package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.OK;
import static dev.brace.it.matrix.Script.Step.SLOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.CircuitBreaker;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * A dependency that answers, but slowly, opens the breaker: half of the last four attempts took
 * longer than {@code slowCall}, though every one succeeded. A slow probe re-opens it; a quick one
 * closes it.
 */
final class SlowCallOpening extends Scenario {
  static final String BREAKER = "latency-breaker";

  @CircuitBreaker(name = BREAKER, slowCall = "1s", slowCallRate = 0.5, windowCalls = 4, minimumCalls = 4, resetTimeout = "10s")
  interface Annotated extends Shape {
    @Override
    String call(String key, String input) throws Exception;

    @Override
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    Mono<String> callMono(String key, String input);

    @Override
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    Flux<String> callFlux(String key, String input);

    @Override
    Flow<String> callFlow(String key, String input);
  }

  /** Judges latency too, but so leniently that no attempt of the script is slow. */
  @CircuitBreaker(name = BREAKER + DECOY, slowCall = "1m", slowCallRate = 1.0, windowCalls = 4, minimumCalls = 4, resetTimeout = "10s")
  interface Decoy extends Shape {
    @Override
    String call(String key, String input) throws Exception;

    @Override
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    Mono<String> callMono(String key, String input);

    @Override
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    Flux<String> callFlux(String key, String input);

    @Override
    Flow<String> callFlow(String key, String input);
  }

  SlowCallOpening() {
    super("slow calls open the breaker", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.circuitBreaker(named(BREAKER, annotatedValues), b -> b
        .slowCall(annotatedValues ? "1s" : "1m").slowCallRate(annotatedValues ? 0.5 : 1.0)
        .windowCalls(4).minimumCalls(4).resetTimeout("10s"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.circuitBreaker(decoy(BREAKER), b -> b.slowCall("1s").slowCallRate(0.5));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(
        env("CIRCUITBREAKER", decoy(BREAKER), "SLOW_CALL"), "1s",
        env("CIRCUITBREAKER", decoy(BREAKER), "SLOW_CALL_RATE"), "0.5");
  }

  @Override
  void run(Cell cell) throws Exception {
    String breaker = cell.name(BREAKER);
    cell.script.then(SLOW, OK, SLOW);
    assertEquals("v1", cell.call("v"), "a slow call still answers");
    assertEquals("v2", cell.call("v"));
    assertEquals("v3", cell.call("v"));
    assertEquals(CircuitState.CLOSED, cell.state(breaker), "three outcomes, below minimumCalls");
    assertEquals("v4", cell.call("v"));
    assertEquals(CircuitState.OPEN, cell.state(breaker), "2 of the last 4 calls were slow, none failed");

    assertThrows(CircuitOpenException.class, () -> cell.call("v"));
    assertEquals(4, cell.script.invocations.get());

    cell.clock.advance(Duration.ofSeconds(10));
    cell.script.then(SLOW);
    assertEquals("v5", cell.call("v"), "the slow probe's answer is still the caller's");
    assertEquals(CircuitState.OPEN, cell.state(breaker), "a slow probe is a failed probe");

    cell.clock.advance(Duration.ofSeconds(10));
    assertEquals("v6", cell.call("v"));
    assertEquals(CircuitState.CLOSED, cell.state(breaker), "a quick probe closes it");
    if (cell.listening) {
      List<Event> opened = cell.events("circuit.opened");
      assertEquals(2, opened.size());
      assertEquals(0.5, opened.get(0).attributes().get("slow_call_rate"));
      assertEquals(0.5, opened.get(0).attributes().get("slow_call_rate_threshold"));
      assertEquals(4L, opened.get(0).attributes().get("observed_calls"));
      assertEquals("HALF_OPEN", opened.get(1).attributes().get("from"));
      assertEquals(1000L, opened.get(1).attributes().get("slow_call_ms"));
    }
  }
}
