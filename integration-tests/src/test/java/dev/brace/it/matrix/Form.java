package dev.brace.it.matrix;

import dev.brace.runtime.Brace;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.concurrent.CompletableFuture;

/** How the application calls: through the generated wrapper or a Stack, synchronously or not. */
enum Form {
  GENERATED_SYNC("generated sync", "call", false),
  GENERATED_ASYNC("generated async", "callAsync", false),
  STACK_CALL("Stack.call", "call", true),
  STACK_CALL_ASYNC("Stack.callAsync", "callAsync", true);

  final String title;
  /** The interface method the form stands for; its call name names the Stack too. */
  final String method;
  final boolean stack;

  Form(String title, String method, boolean stack) {
    this.title = title;
    this.method = method;
    this.stack = stack;
  }

  boolean async() {
    return method.equals("callAsync");
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
          return wrapper.callAsync(key, input);
        }
      };
    }
    Stack.Builder<String> parts = Stack.builder(callName);
    scenario.parts(parts, annotatedValues, script);
    Stack<String> built = parts.build(registry);
    return new Caller() {
      @Override
      public String call(String key, String input) throws Exception {
        return built.call(key, () -> script.sync(key, input));
      }

      @Override
      public CompletableFuture<String> callAsync(String key, String input) {
        return built.callAsync(key, () -> script.async(key, input));
      }
    };
  }

  private static <T extends Shape> Shape wrap(Class<T> type, Script script, Registry registry) {
    return Brace.wrap(type, script.as(type), registry);
  }
}
