package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static dev.brace.it.matrix.Script.Step.ISE;
import static dev.brace.it.matrix.Script.Step.WRAPPED_IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Fallback;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * The fallback answers a failure matching {@code on} and receives the exception that matched,
 * the wrapper looked through; a failure outside {@code on} propagates.
 */
final class FallbackWithCause extends Scenario {
  interface Annotated extends Shape {
    @Override
    @Fallback(method = "fallback", on = IOException.class)
    String call(String key, String input) throws Exception;

    @Override
    @Fallback(method = "fallbackAsync", on = IOException.class)
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @Fallback(method = "fallback", on = IOException.class)
    Mono<String> callMono(String key, String input);

    @Override
    @Fallback(method = "fallback", on = IOException.class)
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    @Fallback(method = "fallbackFlux", on = IOException.class)
    Flux<String> callFlux(String key, String input);

    @Override
    @Fallback(method = "fallbackFlow", on = IOException.class)
    Flow<String> callFlow(String key, String input);

    default String fallback(String key, String input, IOException cause) {
      return "fallback:" + cause.getMessage();
    }

    default CompletableFuture<String> fallbackAsync(String key, String input, IOException cause) {
      return CompletableFuture.completedFuture("fallback:" + cause.getMessage());
    }

    default Flux<String> fallbackFlux(String key, String input, IOException cause) {
      return Flux.just("fallback:" + cause.getMessage());
    }

    default Flow<String> fallbackFlow(String key, String input, IOException cause) {
      return FlowKt.flowOf("fallback:" + cause.getMessage());
    }
  }

  /** Answers only a FileNotFoundException: the layer must widen it to every IOException. */
  interface Decoy extends Shape {
    @Override
    @Fallback(method = "fallback", on = FileNotFoundException.class)
    String call(String key, String input) throws Exception;

    @Override
    @Fallback(method = "fallbackAsync", on = FileNotFoundException.class)
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @Fallback(method = "fallback", on = FileNotFoundException.class)
    Mono<String> callMono(String key, String input);

    @Override
    @Fallback(method = "fallback", on = FileNotFoundException.class)
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    @Fallback(method = "fallbackFlux", on = FileNotFoundException.class)
    Flux<String> callFlux(String key, String input);

    @Override
    @Fallback(method = "fallbackFlow", on = FileNotFoundException.class)
    Flow<String> callFlow(String key, String input);

    default String fallback(String key, String input, IOException cause) {
      return "fallback:" + cause.getMessage();
    }

    default CompletableFuture<String> fallbackAsync(String key, String input, IOException cause) {
      return CompletableFuture.completedFuture("fallback:" + cause.getMessage());
    }

    default Flux<String> fallbackFlux(String key, String input, IOException cause) {
      return Flux.just("fallback:" + cause.getMessage());
    }

    default Flow<String> fallbackFlow(String key, String input, IOException cause) {
      return FlowKt.flowOf("fallback:" + cause.getMessage());
    }
  }

  FallbackWithCause() {
    super("fallback with cause", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    Class<? extends Throwable> on = annotatedValues ? IOException.class : FileNotFoundException.class;
    stack.fallback(f -> f.on(on), cause -> {
      script.fallbackCauses.add(cause);
      return "fallback:" + cause.getMessage();
    });
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.fallback(call, f -> f.on(IOException.class));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of();
  }

  @Override
  String environmentCannot() {
    return "a fallback's on filter is code: the environment can only switch a fallback off";
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO, WRAPPED_IO, ISE);

    assertEquals("fallback:io1", cell.call("v"));
    assertEquals("fallback:wrapped2", cell.call("v"), "the fallback receives the IOException inside the ExecutionException");
    assertEquals(IOException.class, cell.script.fallbackCauses.get(1).getClass());
    assertEquals("ise3", assertThrows(IllegalStateException.class, () -> cell.call("v")).getMessage());
    assertEquals(2, cell.script.fallbackCauses.size(), "a failure outside on never reaches the fallback");
    if (cell.listening) {
      assertEquals(2, cell.events("fallback.used").size());
      assertEquals(IOException.class.getName(), cell.events("fallback.used").get(1).attributes().get("exception"));
    }
  }
}
