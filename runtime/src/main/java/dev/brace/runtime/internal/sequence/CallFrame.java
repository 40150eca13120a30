package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.attempt.AttemptTicket;
import dev.brace.runtime.internal.context.CurrentDeadline;
import dev.brace.runtime.spi.driver.DelegateCall;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.StageAdapter;

/**
 * What one call works with while it runs: the delegate, the call's arguments, the call's sequence
 * and the ticket its attempts go through the pipeline with. As a {@link DelegateCall} it is one call
 * of the delegate with those arguments.
 *
 * <p>A call on the caller's thread {@linkplain #enter borrows} its thread's frame (a stack of them,
 * so a call made inside another's delegate gets one of its own) and {@linkplain #exit gives it
 * back}: a call allocates nothing to carry its arguments and ticket. A call that goes on after
 * its caller's method returned (an asynchronous one that waits) {@linkplain #detach detaches} a
 * frame of its own and takes the ticket with it.
 */
public final class CallFrame implements DelegateCall {
  private static final ThreadLocal<Frames> FRAMES = ThreadLocal.withInitial(Frames::new);

  private final Frames owner;
  private CallSequence sequence;
  private Object target;
  private final Arguments arguments;
  private AttemptTicket ticket;
  /** For a return type the runtime does not know (a Reactor {@code Mono}): what turns the delegate's into a stage; else null. */
  private StageAdapter adapter;

  private CallFrame(Frames owner, Arguments arguments, AttemptTicket ticket) {
    this.owner = owner;
    this.arguments = arguments;
    this.ticket = ticket;
  }

  /**
   * Borrows this thread's next frame for a call.
   *
   * @return the frame, holding the call's delegate and arguments; give it back with {@link #exit}
   */
  public static CallFrame enter(CallSequence sequence, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    CallFrame frame = FRAMES.get().push();
    if (frame.sequence != sequence) {
      frame.sequence = sequence;
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
   * @return a frame of the call's own, with the same delegate and arguments and this frame's ticket
   *     (this one gets a new one), for a call that goes on after its caller's method returned
   */
  public CallFrame detach() {
    ticket.release();
    CallFrame detached = new CallFrame(null, arguments.copy(), ticket);
    detached.sequence = sequence;
    detached.target = target;
    detached.adapter = adapter;
    ticket = owner == null ? new AttemptTicket() : AttemptTicket.confinedTo(owner.deadline);
    return detached;
  }

  /** @return the call's sequence */
  public CallSequence sequence() {
    return sequence;
  }

  /** @return the delegate */
  public Object target() {
    return target;
  }

  /** @return the call's arguments */
  public Arguments arguments() {
    return arguments;
  }

  /** @return the ticket the call's attempts go through the pipeline with, one at a time */
  public AttemptTicket ticket() {
    return ticket;
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
    Object returned = sequence.invoke(target, arguments);
    return adapter == null ? returned : adapter.attempt(returned);
  }

  /**
   * Calls the fallback method with the call's arguments.
   *
   * @param failure what {@link CallFallback#answering} returned
   * @throws Throwable what the fallback threw
   */
  public Object answer(Throwable failure) throws Throwable {
    Object answered = CallFallback.call(sequence, target, arguments, failure);
    return adapter == null ? answered : adapter.answer(answered);
  }

  /** @return a copy that keeps the arguments after this frame has been given back and reused */
  @Override
  public DelegateCall detached() {
    CallSequence calls = sequence;
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
    /** The thread's deadline state, which the frames' tickets read without a thread-local lookup of their own. */
    final CurrentDeadline deadline = CurrentDeadline.ofThisThread();
    private CallFrame[] frames = new CallFrame[2];
    int depth;

    CallFrame push() {
      if (depth == frames.length) {
        frames = java.util.Arrays.copyOf(frames, depth * 2);
      }
      CallFrame frame = frames[depth];
      if (frame == null) {
        frame = new CallFrame(this, new Arguments(), AttemptTicket.confinedTo(deadline));
        frames[depth] = frame;
      }
      depth++;
      return frame;
    }
  }
}
