package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.context.CurrentDeadline;
import dev.brace.runtime.spi.driver.DelegateCall;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.StageAdapter;

/**
 * What one call works with while it runs: the delegate, the call's arguments, the call's policies
 * and the attempt's state its attempts go through the pipeline with. As a {@link DelegateCall} it is one call
 * of the delegate with those arguments.
 *
 * <p>A call on the caller's thread {@linkplain #enter borrows} its thread's frame (a stack of them,
 * so a call made inside another's delegate gets one of its own) and {@linkplain #exit gives it
 * back}: a call allocates nothing to carry its arguments and its attempts' state. A call that goes on after
 * its caller's method returned (an asynchronous one that waits) {@linkplain #detach detaches} a
 * frame of its own and takes the attempt's state with it.
 */
public final class CallFrame implements DelegateCall {
  private static final ThreadLocal<Frames> FRAMES = ThreadLocal.withInitial(Frames::new);

  private final Frames owner;
  private CallPolicies policies;
  private Object target;
  private final Arguments arguments;
  private AttemptState attemptState;
  /** For a return type the runtime does not know (a Reactor {@code Mono}): what turns the delegate's into a stage; else null. */
  private StageAdapter adapter;

  private CallFrame(Frames owner, Arguments arguments, AttemptState attemptState) {
    this.owner = owner;
    this.arguments = arguments;
    this.attemptState = attemptState;
  }

  /**
   * Borrows this thread's next frame for a call.
   *
   * @return the frame, holding the call's delegate and arguments; give it back with {@link #exit}
   */
  public static CallFrame enter(CallPolicies policies, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    CallFrame frame = FRAMES.get().push();
    if (frame.policies != policies) {
      frame.policies = policies;
    }
    if (frame.target != target) {
      frame.target = target;
    }
    frame.arguments.set(a, b, c, d, x, y);
    return frame;
  }

  /**
   * Gives a borrowed frame back, holding none of the call's arguments. It keeps the call's
   * sequence and delegate until the thread's next call at this depth, which then need not write
   * them again when it is a call of the same wrapper: one delegate per thread and depth, kept
   * alive a little longer, for two barriers fewer on every call.
   */
  public void exit() {
    if (adapter != null) {
      adapter = null;
    }
    arguments.clear();
    owner.depth--;
  }

  /**
   * @return a frame of the call's own, with the same delegate and arguments and this frame's attempt's state
   *     (this one gets a new one), for a call that goes on after its caller's method returned
   */
  public CallFrame detach() {
    attemptState.release();
    CallFrame detached = new CallFrame(null, arguments.copy(), attemptState);
    detached.policies = policies;
    detached.target = target;
    detached.adapter = adapter;
    attemptState = owner == null ? new AttemptState() : AttemptState.confinedTo(owner.deadline);
    return detached;
  }

  /** @return the call's policies */
  public CallPolicies policies() {
    return policies;
  }

  /** @return the delegate */
  public Object target() {
    return target;
  }

  /** @return the call's arguments */
  public Arguments arguments() {
    return arguments;
  }

  /** @return the attempt's state the call's attempts go through the pipeline with, one at a time */
  public AttemptState attemptState() {
    return attemptState;
  }

  /**
   * @param adapter what turns the delegate's return value and the fallback's answer into stages
   *     for the asynchronous driver, or null when they are stages already
   * @return this
   */
  public CallFrame adapt(StageAdapter adapter) {
    this.adapter = adapter;
    return this;
  }

  /** Calls the delegate once with the call's arguments. */
  @Override
  public Object call() throws Throwable {
    Object returned = policies.invoke(target, arguments);
    return adapter == null ? returned : adapter.attempt(returned);
  }

  /**
   * Calls the fallback method with the call's arguments.
   *
   * @param failure what {@link CallFallback#answering} returned
   * @throws Throwable what the fallback threw
   */
  public Object answer(Throwable failure) throws Throwable {
    Object answered = CallFallback.call(policies, target, arguments, failure);
    return adapter == null ? answered : adapter.answer(answered);
  }

  /** @return a copy that keeps the arguments after this frame has been given back and reused */
  @Override
  public DelegateCall detached() {
    CallPolicies calls = policies;
    Object delegate = target;
    Arguments copy = arguments.copy();
    StageAdapter adapting = adapter;
    if (adapting != null) {
      return () -> adapting.attempt(calls.invoke(delegate, copy));
    }
    return () -> calls.invoke(delegate, copy);
  }

  /** One thread's frames: index {@code depth} is the next free one. */
  private static final class Frames {
    /** The thread's deadline state, which the frames' attempt states read without a thread-local lookup of their own. */
    final CurrentDeadline deadline = CurrentDeadline.ofThisThread();
    private CallFrame[] frames = new CallFrame[2];
    int depth;

    CallFrame push() {
      if (depth == frames.length) {
        frames = java.util.Arrays.copyOf(frames, depth * 2);
      }
      CallFrame frame = frames[depth];
      if (frame == null) {
        frame = new CallFrame(this, new Arguments(), AttemptState.confinedTo(deadline));
        frames[depth] = frame;
      }
      depth++;
      return frame;
    }
  }
}
