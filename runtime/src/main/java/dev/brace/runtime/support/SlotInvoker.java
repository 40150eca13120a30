package dev.brace.runtime.support;

/**
 * Calls the delegate's method with a call's arguments in their slots, passed as parameters (see
 * {@link Arguments} for what goes in which slot). A generated wrapper has one, a static method that
 * switches on the method's number and casts the slots back. Taking the slots as parameters lets a
 * call that needs no frame of its own (nothing to wait for, nothing to hand to another thread) reach
 * the delegate without storing its arguments anywhere first.
 */
@FunctionalInterface
public interface SlotInvoker {
  /**
   * @param method the method's number in its wrapper ({@code CallDefinition.method()})
   * @param target the delegate
   * @param a the first reference slot (or, for a method of more arguments, all of them in an {@code Object[]})
   * @param b the second reference slot
   * @param c the third reference slot
   * @param d the fourth reference slot
   * @param x the first primitive slot, widened to {@code long}
   * @param y the second primitive slot, widened to {@code long}
   * @return what the delegate's method returned
   * @throws Throwable whatever it threw, unchanged
   */
  Object invoke(int method, Object target, Object a, Object b, Object c, Object d, long x, long y) throws Throwable;
}
