package dev.brace.runtime.internal.context;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

/**
 * A thread's slot is not looked up until some thread sets a deadline, and is from the first set
 * on, whichever way it is set (pushed, or an attempt's bound passed on). Each case loads the slot's
 * class afresh, so its first set is really the first in that class's life, whatever other tests
 * set before in this JVM.
 */
class CurrentDeadlineFirstSetTest {

  @Test
  void aDeadlinePushedIsSeenFromTheFirstPushOn() throws Exception {
    try (URLClassLoader loader = freshLoader()) {
      Class<?> slots = loader.loadClass(CurrentDeadline.class.getName());
      Class<?> clocks = loader.loadClass("dev.brace.runtime.TimeSource");
      Object clock = loader.loadClass("dev.brace.runtime.ManualTimeSource").getConstructor().newInstance();
      assertEquals(false, presentOnThisThread(slots), "nothing was set yet");
      Object slot = slots.getMethod("ofThisThread").invoke(null);
      slots.getMethod("push", clocks, long.class, long.class, Object.class).invoke(slot, clock, 100L, 100L, null);
      assertEquals(true, presentOnThisThread(slots), "the first push is seen");
      slots.getMethod("pop").invoke(slot);
      assertEquals(false, presentOnThisThread(slots), "and its pop");
    }
  }

  @Test
  void anAttemptsBoundPassedOnIsSeenWhenNothingWasEverPushed() throws Exception {
    try (URLClassLoader loader = freshLoader()) {
      Class<?> slots = loader.loadClass(CurrentDeadline.class.getName());
      Class<?> passedOn = loader.loadClass(CurrentDeadline.PassedOn.class.getName());
      Object clock = loader.loadClass("dev.brace.runtime.ManualTimeSource").getConstructor().newInstance();
      Object bound = Proxy.newProxyInstance(loader, new Class<?>[] {passedOn}, (proxy, method, args) ->
          switch (method.getName()) {
            case "passedOnClock" -> clock;
            case "passedOnEnd", "passedOnBudget" -> 50L;
            default -> throw new UnsupportedOperationException(method.getName());
          });
      assertEquals(false, presentOnThisThread(slots), "nothing was set yet");
      Object slot = slots.getMethod("ofThisThread").invoke(null);
      Object outer = slots.getMethod("passOn", passedOn).invoke(slot, bound);
      assertEquals(true, presentOnThisThread(slots), "a nested call reads the attempt's bound");
      slots.getMethod("stopPassingOn", passedOn).invoke(slot, outer);
      assertEquals(false, presentOnThisThread(slots), "and not once the attempt ended");
    }
  }

  private static Object presentOnThisThread(Class<?> slots) throws Exception {
    Method present = slots.getMethod("presentOnThisThread");
    return present.invoke(null);
  }

  /** The runtime's classes, loaded again apart from this test's own. */
  private static URLClassLoader freshLoader() {
    URL classes = CurrentDeadline.class.getProtectionDomain().getCodeSource().getLocation();
    return new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader());
  }
}
