package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The frames a thread lends its calls: one per call in progress on it, however deeply calls nest.
 */
class NestedCallFramesTest {
  private final Registry registry = Registry.builder().timeSource(new ManualTimeSource()).build();

  private Stack<String> stack(String name) {
    return Stack.<String>builder(name).retry(r -> r.maxAttempts(2).delay("0ms")).build(registry);
  }

  /**
   * A thread starts with room for two frames: a third call in progress on it needs more. The calls
   * run on a new thread, whose frames no earlier test on the test thread has grown already.
   */
  @Test
  void callsNestedFourDeepOnOneThreadEachRunOnAFrameOfTheirOwn() throws Exception {
    Stack<String> first = stack("A.first");
    Stack<String> second = stack("A.second");
    Stack<String> third = stack("A.third");
    Stack<String> fourth = stack("A.fourth");
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread fresh = new Thread(() -> {
      try {
        outcome.set(first.call(() -> "1(" + second.call(() -> "2(" + third.call(() -> "3(" + fourth.call(() -> "4") + ")") + ")") + ")"));
      } catch (Throwable failed) {
        outcome.set(failed);
      }
    });
    fresh.start();
    fresh.join(TimeUnit.SECONDS.toMillis(10));

    assertEquals("1(2(3(4)))", outcome.get());
  }
}
