package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A stack's key, given with each call, keys its remembered results even when nothing else is keyed. */
class StackStaleKeyTest {

  @Test
  void aStackWithNoKeyedBreakerOrLimiterRemembersAResultPerKey() throws Exception {
    Registry registry = Registry.builder().timeSource(new ManualTimeSource()).build();
    Stack<String> stack = Stack.<String>builder("S.get").staleIfError(s -> { }).build(registry);

    assertEquals("for a", stack.call("a", () -> "for a"));
    assertEquals("for b", stack.call("b", () -> "for b"));

    assertEquals("for a", stack.call("a", () -> {
      throw new IOException("down");
    }), "key a's own remembered result, not the last one remembered");
  }
}
