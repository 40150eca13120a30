package dev.brace.runtime.internal.attempt;

/** How an asynchronous driver reads the delegate's return: its value if it has settled with one. */
public interface SettledValue {
  /** What {@link #valueNow} answers for a delegate's result that is still to come. */
  Object IN_FLIGHT = new Object();

  /**
   * @param returned what the delegate returned (a stage)
   * @param callName the call, for the failure of a delegate that returned no stage
   * @return its value when it has completed with one; {@link #IN_FLIGHT} when it has not, or failed
   * @throws Throwable when {@code returned} is no stage at all: the attempt failed
   */
  Object valueNow(Object returned, String callName) throws Throwable;
}
