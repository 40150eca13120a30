package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * One attempt must fit in the retry's {@code maxDuration}. Annotations that break the rule do not
 * compile; this is the same rule held against every other layer: a form whose timeout, limiter
 * {@code maxWait} or bulkhead {@code maxWait} is made longer than the retry's limit by code, an
 * environment variable or a system property is refused, naming the value and where it came from,
 * and so is a live reconfiguration, which leaves the call as it was.
 */
final class AttemptFitsRetry extends Scenario {
  static final String LIMITER = "fitting-limiter";
  static final String BULKHEAD = "fitting-bulkhead";

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, maxDuration = "10s", on = IOException.class)
  @Timeout("2s")
  @RateLimit(name = LIMITER, permits = 1000, per = "1s", maxWait = "1s")
  @Bulkhead(name = BULKHEAD, maxConcurrent = 5, maxWait = "1s")
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

  @Retry(maxAttempts = 1, delay = "10ms", jitter = Retry.Jitter.NONE, maxDuration = "10s", on = IOException.class)
  @Timeout("2s")
  @RateLimit(name = LIMITER + DECOY, permits = 1000, per = "1s", maxWait = "1s")
  @Bulkhead(name = BULKHEAD + DECOY, maxConcurrent = 5, maxWait = "1s")
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

  AttemptFitsRetry() {
    super("an attempt fits in the retry's maxDuration", Annotated.class, Decoy.class);
  }

  @Override
  List<String> limiters() {
    return List.of(LIMITER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(annotatedValues ? 3 : 1).delay("10ms").jitter(Retry.Jitter.NONE).maxDuration("10s").on(IOException.class))
        .timeout(t -> t.duration("2s"))
        .rateLimit(named(LIMITER, annotatedValues), l -> l.permits(1000).per("1s").maxWait("1s"))
        .bulkhead(named(BULKHEAD, annotatedValues), b -> b.maxConcurrent(5).maxWait("1s"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxAttempts(3));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RETRY", call, "MAX_ATTEMPTS"), "3");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO, IO);
    assertEquals("v3", cell.call("v"), "attempts that fit are retried");

    String timeoutVariable = env("TIMEOUT", cell.callName, "DURATION");
    ConfigurationException timeout = refused(cell, registry -> registry.environment(Map.of(timeoutVariable, "20s")));
    assertEquals("[brace:max-duration-below-timeout]", timeout.tag());
    assertTrue(timeout.getMessage().contains("maxDuration = 10s (") && timeout.getMessage().contains("timeout = 20s (environment " + timeoutVariable + ")"),
        timeout.getMessage());

    ConfigurationException limiter = refused(cell, registry -> registry.environment(Map.of())
        .rateLimit(cell.name(LIMITER), l -> l.maxWait("30s")));
    assertEquals("[brace:max-duration-below-wait]", limiter.tag());
    assertTrue(limiter.getMessage().contains("rate limiter's maxWait = 30s (programmatic"), limiter.getMessage());

    String bulkheadProperty = "brace.bulkhead." + cell.name(BULKHEAD) + ".max-wait";
    ConfigurationException bulkhead = refused(cell, registry -> registry.environment(Map.of())
        .systemProperties(Map.of(bulkheadProperty, "40s")));
    assertEquals("[brace:max-duration-below-wait]", bulkhead.tag());
    assertTrue(bulkhead.getMessage().contains("bulkhead's maxWait = 40s (") && bulkhead.getMessage().contains(bulkheadProperty + ")"), bulkhead.getMessage());

    ConfigurationException live = assertThrows(ConfigurationException.class, () -> cell.reconfigure(Map.of(timeoutVariable, "20s")),
        "a reconfiguration is held to the same rule");
    assertEquals("[brace:reconfiguration-refused]", live.tag());
    assertTrue(live.getMessage().contains("[brace:max-duration-below-timeout]") && live.getMessage().contains(timeoutVariable),
        live.getMessage());
    cell.script.then(IO);
    assertEquals("w5", cell.call("w"), "the refused reconfiguration left the call as it was");
  }

  /** Creates the cell's form over a registry of its own, laid out by {@code layers}, and returns why it was refused. */
  private ConfigurationException refused(Cell cell, UnaryOperator<Registry.Builder> layers) {
    Registry registry = layers.apply(Registry.builder().timeSource(cell.clock).systemProperties(Map.of())).build();
    return assertThrows(ConfigurationException.class, () -> cell.form.caller(
        this, cell.layer.type(this), cell.callName, cell.layer == Layer.ANNOTATION, registry, cell.script));
  }
}
