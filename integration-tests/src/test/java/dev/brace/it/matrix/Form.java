package dev.brace.it.matrix;

import dev.brace.reactor.ReactiveStack;
import dev.brace.runtime.Brace;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Flux;

/**
 * How the application calls: through the generated wrapper or a Stack; synchronously, with a
 * future, or with a Reactor {@code Mono} or {@code Flux} (a Stack's through {@code ReactiveStack}).
 * A reactive call is subscribed at once and its one element taken as the call's future, so the
 * scenarios drive it as an asynchronous one.
 */
enum Form {
  GENERATED_SYNC("generated sync", "call", false),
  GENERATED_ASYNC("generated async", "callAsync", false),
  GENERATED_MONO("generated Mono", "callMono", false),
  GENERATED_FLUX("generated Flux", "callFlux", false),
  STACK_CALL("Stack.call", "call", true),
  STACK_CALL_ASYNC("Stack.callAsync", "callAsync", true),
  STACK_MONO("ReactiveStack.mono", "callMono", true),
  STACK_FLUX("ReactiveStack.flux", "callFlux", true);

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

  /** @return whether the call is a {@code Flux}, which some patterns cannot have */
  boolean flux() {
    return method.equals("callFlux");
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

  private static <T extends Shape> Shape wrap(Class<T> type, Script script, Registry registry) {
    return Brace.wrap(type, script.as(type), registry);
  }
}
