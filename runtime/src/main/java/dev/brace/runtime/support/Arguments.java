package dev.brace.runtime.support;

/**
 * The arguments of one call, in the slots a generated method puts them in: up to four reference
 * arguments ({@link #a()} to {@link #d()}) and up to two primitive ones, each widened to a {@code
 * long} ({@link #x()}, {@link #y()}; a {@code double} or {@code float} as its raw bits, a {@code
 * boolean} as 0 or 1). A method with more of either kind passes all its arguments, boxed, as one
 * {@code Object[]} in {@link #a()}. Slots a method does not use hold null or 0.
 *
 * <p>Fixed slots let a generated method hand its arguments to the runtime without allocating: the
 * runtime fills an instance it reuses per thread, and the method's {@link Invoker} (a lambda that
 * captures nothing) reads them back. A call that outlives the caller's stack frame (an
 * asynchronous one that has to wait, an attempt left to run after its timeout) works on a {@link
 * #copy()}.
 */
public final class Arguments {
  private Object a;
  private Object b;
  private Object c;
  private Object d;
  private long x;
  private long y;

  /** An empty set of slots, filled by {@link #set}. */
  public Arguments() {}

  /**
   * Fills every slot.
   *
   * @param a the first reference slot (or, for a method of more arguments, all of them in an {@code Object[]})
   * @param b the second reference slot
   * @param c the third reference slot
   * @param d the fourth reference slot
   * @param x the first primitive slot, widened to {@code long}
   * @param y the second primitive slot, widened to {@code long}
   * @return this
   */
  public Arguments set(Object a, Object b, Object c, Object d, long x, long y) {
    // A reference store into a long-lived object costs a garbage collector's barrier; most calls
    // leave most slots empty, and a slot that keeps its value is not written.
    if (this.a != a) {
      this.a = a;
    }
    if (this.b != b) {
      this.b = b;
    }
    if (this.c != c) {
      this.c = c;
    }
    if (this.d != d) {
      this.d = d;
    }
    this.x = x;
    this.y = y;
    return this;
  }

  /** Empties the reference slots, so a reused instance keeps nothing of a call that ended alive. */
  public void clear() {
    if (a != null) {
      a = null;
    }
    if (b != null) {
      b = null;
    }
    if (c != null) {
      c = null;
    }
    if (d != null) {
      d = null;
    }
  }

  /** @return the same arguments in an instance of their own */
  public Arguments copy() {
    return new Arguments().set(a, b, c, d, x, y);
  }

  /** @return the first reference argument, or every argument as an {@code Object[]} */
  public Object a() {
    return a;
  }

  /** @return the second reference argument */
  public Object b() {
    return b;
  }

  /** @return the third reference argument */
  public Object c() {
    return c;
  }

  /** @return the fourth reference argument */
  public Object d() {
    return d;
  }

  /** @return the first primitive argument, widened to a {@code long} */
  public long x() {
    return x;
  }

  /** @return the second primitive argument, widened to a {@code long} */
  public long y() {
    return y;
  }
}
