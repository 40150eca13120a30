package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.ResilientCall;
import java.lang.invoke.MethodHandles;
import java.util.Objects;

/**
 * How the runtime makes a {@link ResilientCall} and gives it new policies, which the API hides so
 * that no public signature names a {@link CallPolicies}: {@code ResilientCall} lends its
 * constructor, its switch and its current sequence here once, when its class is initialized.
 */
public final class ResilientCalls {
  /** What {@link ResilientCall} lends. */
  public interface Access {
    /** @return a call on {@code callPolicies} */
    ResilientCall make(CallPolicies callPolicies);

    /** Gives calls that start from now on {@code next}. */
    void switchTo(ResilientCall call, CallPolicies next);

    /** @return the policies {@code call} starts its calls on now */
    CallPolicies current(ResilientCall call);
  }

  private static volatile Access access;

  private ResilientCalls() {}

  /**
   * Called once, by {@link ResilientCall}'s static initializer.
   *
   * @throws IllegalStateException when access was lent already
   */
  public static synchronized void lend(Access lent) {
    if (access != null) {
      throw new IllegalStateException("ResilientCall lent its access already");
    }
    access = Objects.requireNonNull(lent, "lent");
  }

  /** @return a call on {@code callPolicies}, as {@code Registry.resolve} returns it */
  public static ResilientCall make(CallPolicies callPolicies) {
    return access().make(Objects.requireNonNull(callPolicies, "callPolicies"));
  }

  /** Gives the calls {@code call} starts from now on the policies {@code next}; running calls keep theirs. */
  public static void switchTo(ResilientCall call, CallPolicies next) {
    access().switchTo(call, Objects.requireNonNull(next, "next"));
  }

  /** @return the policies {@code call} starts its calls on now */
  public static CallPolicies current(ResilientCall call) {
    return access().current(call);
  }

  private static Access access() {
    Access lent = access;
    if (lent == null) {
      try {
        // Initializing the class is what lends the access; no reflection, so nothing a native image must be told.
        MethodHandles.lookup().ensureInitialized(ResilientCall.class);
      } catch (IllegalAccessException impossible) {
        throw new IllegalStateException("ResilientCall is public", impossible);
      }
      lent = access;
    }
    return lent;
  }
}
