package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A stack's key, given with each call, reaches each of its parts that is keyed, and only those. */
class StackKeysTest {

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

  /** The limiter is keyed and the breaker is not: each key has a limiter of its own. */
  @Test
  void aStackWithOnlyAKeyedLimiterGivesEachKeyItsOwnTokens() throws Exception {
    Registry registry = Registry.builder().timeSource(new ManualTimeSource()).build();
    Stack<String> stack = Stack.<String>builder("S.limited")
        .rateLimit("per-tenant", l -> l.permits(1).per("1s").key("{tenant}"))
        .build(registry);

    assertEquals("a", stack.call("a", () -> "a"));
    assertThrows(RateLimitedException.class, () -> stack.call("a", () -> "a again"), "key a's one token is spent");
    assertEquals("b", stack.call("b", () -> "b"), "key b has a token of its own");
  }
}
