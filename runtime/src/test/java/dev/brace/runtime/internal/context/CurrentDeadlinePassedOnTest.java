package dev.brace.runtime.internal.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeSource;
import org.junit.jupiter.api.Test;

/**
 * An attempt's bound laid over the thread's deadline slot: read in place of what was pushed while
 * it is there, saved by a push made inside the attempt and back after its pop, nested attempts
 * taking theirs off in turn, and nothing left once the outermost ends.
 */
class CurrentDeadlinePassedOnTest {
  private final ManualTimeSource clock = new ManualTimeSource();

  private record Bound(TimeSource passedOnClock, long passedOnEnd, long passedOnBudget) implements CurrentDeadline.PassedOn {}

  @Test
  void anAttemptsBoundIsReadWhileItIsLaidOverAndTheSlotIsAsBeforeAfterwards() throws Exception {
    Thread worker = new Thread(() -> {
      CurrentDeadline slot = CurrentDeadline.ofThisThread();
      slot.push(clock, 900, 900, "caller's");
      Bound outer = new Bound(clock, 500, 500);
      assertNull(slot.passOn(outer), "no attempt was passing a bound on");
      assertEquals(500, slot.end());
      assertNull(slot.made(), "an attempt's bound is made afresh on each ask");

      slot.push(clock, 300, 300, "opened inside the attempt");
      assertEquals(300, slot.end(), "a push inside the attempt is innermost");
      slot.pop();
      assertEquals(500, slot.end(), "the attempt's bound is back after the pop");

      Bound inner = new Bound(null, 0, 0);
      assertSame(outer, slot.passOn(inner));
      assertFalse(slot.present(), "a nested call that must finish passes on no deadline at all");
      slot.stopPassingOn(outer);
      assertTrue(slot.present());
      assertEquals(500, slot.budgetNanos());

      slot.stopPassingOn(null);
      assertEquals(900, slot.end(), "the caller's deadline again");
      assertEquals("caller's", slot.made());
      slot.pop();
      assertFalse(slot.present());
      assertEquals(0, slot.depth());
    });
    // On a thread of its own: the slot it leaves behind is no other test's.
    Throwable[] failed = new Throwable[1];
    worker.setUncaughtExceptionHandler((thread, error) -> failed[0] = error);
    worker.start();
    worker.join(10_000);
    if (failed[0] != null) {
      throw new AssertionError(failed[0]);
    }
  }
}
