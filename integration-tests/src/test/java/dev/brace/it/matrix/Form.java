package dev.brace.it.matrix;

import dev.brace.kotlin.StackCoroutines;
import dev.brace.reactor.ReactiveStack;
import dev.brace.runtime.Brace;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.CoroutineStart;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.GlobalScope;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import kotlinx.coroutines.future.FutureKt;
import reactor.core.publisher.Flux;

/**
 * How the application calls: through the generated wrapper or a Stack; synchronously, with a
 * future, with a Reactor {@code Mono} or {@code Flux} (a Stack's through {@code ReactiveStack}), or
 * from Kotlin coroutines, as a {@code suspend} function or a {@code Flow} (a Stack's through {@code
 * suspending} and {@code flow}). A reactive call is subscribed at once and its one element taken
 * as the call's future, so the scenarios drive it as an asynchronous one; a coroutine call is
 * started at once the same way, in a coroutine of its own on {@link #COROUTINE_START}.
 */
enum Form {
  GENERATED_SYNC("generated sync", "call", false),
  GENERATED_ASYNC("generated async", "callAsync", false),
  GENERATED_MONO("generated Mono", "callMono", false),
  GENERATED_FLUX("generated Flux", "callFlux", false),
  GENERATED_SUSPEND("generated suspend", "callSuspend", false),
  GENERATED_FLOW("generated Flow", "callFlow", false),
  STACK_CALL("Stack.call", "call", true),
  STACK_CALL_ASYNC("Stack.callAsync", "callAsync", true),
  STACK_MONO("ReactiveStack.mono", "callMono", true),
  STACK_FLUX("ReactiveStack.flux", "callFlux", true),
  STACK_SUSPENDING("Stack.suspending", "callSuspend", true),
  STACK_FLOW("Stack.flow", "callFlow", true);

  /**
   * How a coroutine form's call starts: at once on the caller's thread, as an async form's first
   * attempt runs, and resumed afterwards on whichever thread ends a wait (the one moving manual
   * time), as a future's or a {@code Mono}'s continuation runs; a dispatcher of real threads would
   * let manual time run ahead of the attempts it schedules.
   */
  private static final CoroutineStart COROUTINE_START = CoroutineStart.UNDISPATCHED;

  final String title;
  /** The interface method the form stands for; its call name names the Stack too. */
  final String method;
  final boolean stack;

  Form(String title, String method, boolean stack) {
    this.title = title;
    this.method = method;
    this.stack = stack;
  }

  /** @return whether the call ends later than it starts: a future or a publisher, never a wait on the caller's thread */
  boolean async() {
    return !method.equals("call");
  }

  /** @return {@code Flux} or {@code Flow} when the call is a stream, which some patterns cannot have; else null */
  String stream() {
    switch (method) {
      case "callFlux":
        return "Flux";
      case "callFlow":
        return "Flow";
      default:
        return null;
    }
  }

  /** One call of the form, synchronous or asynchronous, always with a key (ignored where nothing is keyed). */
  interface Caller {
    String call(String key, String input) throws Exception;

    CompletableFuture<String> callAsync(String key, String input);
  }

  /**
   * @param type the interface whose generated wrapper the generated forms use
   * @param callName the call name of {@link #method} on {@code type}, given to the Stack
   */
  Caller caller(Scenario scenario, Class<? extends Shape> type, String callName, boolean annotatedValues,
      Registry registry, Script script) {
    if (!stack) {
      Shape wrapper = wrap(type, script, registry);
      return new Caller() {
        @Override
        public String call(String key, String input) throws Exception {
          return wrapper.call(key, input);
        }

        @Override
        public CompletableFuture<String> callAsync(String key, String input) {
          switch (Form.this) {
            case GENERATED_MONO:
              return wrapper.callMono(key, input).toFuture();
            case GENERATED_FLUX:
              return oneElement(wrapper.callFlux(key, input));
            case GENERATED_SUSPEND:
              return suspended(completion -> wrapper.callSuspend(key, input, completion));
            case GENERATED_FLOW:
              return oneElement(wrapper.callFlow(key, input));
            default:
              return wrapper.callAsync(key, input);
          }
        }
      };
    }
    Stack.Builder<String> parts = Stack.builder(callName);
    scenario.parts(parts, annotatedValues, script);
    Stack<String> built = parts.build(registry);
    ReactiveStack<String> reactive = ReactiveStack.of(built);
    return new Caller() {
      @Override
      public String call(String key, String input) throws Exception {
        return built.call(key, () -> script.sync(key, input));
      }

      @Override
      public CompletableFuture<String> callAsync(String key, String input) {
        switch (Form.this) {
          case STACK_MONO:
            return reactive.mono(key, () -> script.mono(key, input)).toFuture();
          case STACK_FLUX:
            return oneElement(reactive.flux(key, () -> script.flux(key, input)));
          case STACK_SUSPENDING:
            return suspended(completion -> StackCoroutines.suspending(built, key,
                attempt -> script.suspend(key, input, attempt), completion));
          case STACK_FLOW:
            return oneElement(StackCoroutines.flow(built, key, () -> script.flow(key, input)));
          default:
            return built.callAsync(key, () -> script.async(key, input));
        }
      }
    };
  }

  /** The stream's one element, taken only once it has completed, so the call ends with the stream. */
  private static CompletableFuture<String> oneElement(Flux<String> stream) {
    return stream.singleOrEmpty().toFuture();
  }

  /**
   * Starts a {@code suspend} call, {@code call} given the continuation that ends it, in a coroutine
   * whose future is the call's: cancelling the future cancels the coroutine, as a caller's scope would.
   */
  private static CompletableFuture<String> suspended(SuspendStart call) {
    return FutureKt.future(GlobalScope.INSTANCE, Dispatchers.getUnconfined(), COROUTINE_START,
        (scope, completion) -> {
          try {
            return call.start(completion);
          } catch (Exception thrown) {
            // As Kotlin throws it: unchecked for the compiler, itself for the coroutine that catches it.
            throw Form.<RuntimeException>asUnchecked(thrown);
          }
        });
  }

  /** A {@code suspend} call from Java: what it returned, or {@code COROUTINE_SUSPENDED} until it resumes {@code completion}. */
  private interface SuspendStart {
    Object start(Continuation<? super String> completion) throws Exception;
  }

  @SuppressWarnings("unchecked")
  private static <E extends Exception> E asUnchecked(Exception thrown) throws E {
    throw (E) thrown;
  }

  /**
   * The flow's one element, taken once its collection has completed, so the call ends with the
   * stream; none is null and more than one fails, as {@link #oneElement(Flux)} has it.
   */
  private static CompletableFuture<String> oneElement(Flow<String> stream) {
    CompletableFuture<List<? extends String>> collected = FutureKt.<List<? extends String>>future(GlobalScope.INSTANCE,
        Dispatchers.getUnconfined(), COROUTINE_START,
        (scope, completion) -> FlowKt.toList(stream, new ArrayList<String>(), completion));
    return collected.thenApply(elements -> {
      if (elements.size() > 1) {
        throw new IllegalArgumentException("the flow emitted " + elements.size() + " elements, not one: " + elements);
      }
      return elements.isEmpty() ? null : elements.get(0);
    });
  }

  private static <T extends Shape> Shape wrap(Class<T> type, Script script, Registry registry) {
    return Brace.wrap(type, script.as(type), registry);
  }
}
