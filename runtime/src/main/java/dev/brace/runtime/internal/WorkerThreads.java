package dev.brace.runtime.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.MDC;

/** The threads Brace starts: daemon, named, virtual where the JDK has them. */
public final class WorkerThreads {
  private WorkerThreads() {}

  /**
   * @param prefix the thread names' prefix
   * @return a factory of daemon platform threads named {@code prefix-N}; each starts with an empty
   *     MDC, whatever an inheriting MDC adapter copied from the thread that happened to create it
   */
  public static ThreadFactory daemon(String prefix) {
    AtomicLong counter = new AtomicLong();
    return runnable -> {
      Runnable clean = () -> {
        MDC.clear();
        runnable.run();
      };
      Thread thread = new Thread(clean, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * Runs the attempts an {@code ABANDON} timeout may leave running, each on a thread of its own: a
   * new virtual thread per attempt on JDK 21+; on older JDKs one process-wide pool of daemon
   * platform threads that keeps a finished attempt's thread for the next one, so steady traffic
   * does not pay for starting a platform thread per attempt. An idle thread ends after two
   * seconds, so a quiet application keeps none. The pool has no bound: an attempt left running
   * holds its thread, as a thread of its own would.
   *
   * @return the executor
   */
  public static Executor abandonedAttempts() {
    return AbandonedAttempts.EXECUTOR;
  }

  /** Created on first use, by the first {@code ABANDON} timeout. */
  private static final class AbandonedAttempts {
    static final Executor EXECUTOR = create();

    private static Executor create() {
      ThreadFactory virtual = virtualThreadFactory("brace-abandonable-");
      if (virtual != null) {
        return task -> virtual.newThread(task).start();
      }
      return new ThreadPoolExecutor(
          0, Integer.MAX_VALUE, 2, TimeUnit.SECONDS, new SynchronousQueue<>(), daemon("brace-abandonable"));
    }
  }

  /**
   * The most platform threads one registry runs hedged synchronous attempts on, where the JDK has
   * no virtual threads: enough for 128 slow calls hedged once at the same moment on a small
   * machine, few enough that a storm of slow calls cannot exhaust memory with thread stacks.
   */
  public static final int HEDGE_POOL_THREADS = 256;

  /** How long an idle platform thread of the hedge pool waits for work before it ends. */
  static final long HEDGE_POOL_KEEP_ALIVE_SECONDS = 60;

  /**
   * @return where hedged synchronous attempts run: a new virtual thread per attempt on JDK 21+,
   *     else a pool of at most {@value #HEDGE_POOL_THREADS} daemon threads named {@code
   *     brace-hedge-N}, each ending after {@value #HEDGE_POOL_KEEP_ALIVE_SECONDS} s idle. A full pool
   *     queues nothing: it throws {@link java.util.concurrent.RejectedExecutionException}, and the
   *     hedge that asked is not started.
   */
  public static Executor forHedgedAttempts() {
    ThreadFactory virtual = virtualThreadFactory("brace-hedge-");
    if (virtual != null) {
      return task -> virtual.newThread(task).start();
    }
    return boundedPool(HEDGE_POOL_THREADS, "brace-hedge");
  }

  /** A pool that starts threads up to {@code bound} on demand and rejects beyond it. */
  static ThreadPoolExecutor boundedPool(int bound, String prefix) {
    return new ThreadPoolExecutor(
        0, bound, HEDGE_POOL_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), daemon(prefix));
  }

  /** {@code Thread.ofVirtual().name(prefix, 0).factory()}, or null before JDK 21. */
  private static ThreadFactory virtualThreadFactory(String prefix) {
    try {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Class<?> builderType = Class.forName("java.lang.Thread$Builder$OfVirtual");
      MethodHandle ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(builderType));
      MethodHandle name = lookup.findVirtual(builderType, "name", MethodType.methodType(builderType, String.class, long.class));
      MethodHandle factory = lookup.findVirtual(Class.forName("java.lang.Thread$Builder"), "factory", MethodType.methodType(ThreadFactory.class));
      Object builder = name.invoke(ofVirtual.invoke(), prefix, 0L);
      return (ThreadFactory) factory.invoke(builder);
    } catch (Throwable notAvailable) {
      return null;
    }
  }
}
