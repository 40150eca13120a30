package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptState;

/**
 * What a generated method holds between admitting its attempt without waiting and the attempt's
 * outcome: the policies that admitted it, which finish it whatever a reconfiguration did in
 * between, and what it took. An admitted attempt's is shared by every call its policies admits
 * with the same breaker's ticket (a closed circuit hands out one ticket per generation), so the
 * happy path allocates nothing; one left at a full bulkhead, or by a failed attempt, is made for
 * its call.
 */
final class HeldAttempt {
  final CallPolicies callPolicies;
  /** What {@link AttemptPipeline#takeNow} answered: the breaker's ticket, or {@link AttemptPipeline#TAKEN}. */
  final Object taken;
  /** Null for an admitted attempt; the attempt's state left at a full bulkhead or by its failure, for the staged call to go on from. */
  final AttemptState left;

  HeldAttempt(CallPolicies callPolicies, Object taken, AttemptState left) {
    this.callPolicies = callPolicies;
    this.taken = taken;
    this.left = left;
  }

  /**
   * What recording an admitted attempt's success threw, the failure recorded in {@link #left}: it
   * reaches the generated method's handler as the delegate's own failure would, and the call goes
   * on from the recorded failure. Made only then, without a stack trace of its own.
   */
  static final class SuccessNotRecorded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final transient AttemptState left;

    SuccessNotRecorded(AttemptState left) {
      super(null, left.failure(), false, false);
      this.left = left;
    }
  }
}
