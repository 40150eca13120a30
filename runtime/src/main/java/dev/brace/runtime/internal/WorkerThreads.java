package dev.brace.runtime.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/** The threads Brace starts: daemon, named, virtual where the JDK has them. */
public final class WorkerThreads {
  private WorkerThreads() {}

  /**
   * @param prefix the thread names' prefix
   * @return a factory of daemon platform threads named {@code prefix-N}
   */
  public static ThreadFactory daemon(String prefix) {
    AtomicLong counter = new AtomicLong();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * @return virtual threads on JDK 21+, else daemon platform threads, for the attempts an {@code
   *     ABANDON} timeout may leave running
   */
  public static ThreadFactory forAbandonedAttempts() {
    ThreadFactory virtual = virtualThreadFactory();
    return virtual != null ? virtual : daemon("brace-abandonable");
  }

  /** Looked up once: {@code Thread.ofVirtual().name("brace-abandonable-", 0).factory()}. */
  private static ThreadFactory virtualThreadFactory() {
    try {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Class<?> builderType = Class.forName("java.lang.Thread$Builder$OfVirtual");
      MethodHandle ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(builderType));
      MethodHandle name = lookup.findVirtual(builderType, "name", MethodType.methodType(builderType, String.class, long.class));
      MethodHandle factory = lookup.findVirtual(Class.forName("java.lang.Thread$Builder"), "factory", MethodType.methodType(ThreadFactory.class));
      Object builder = name.invoke(ofVirtual.invoke(), "brace-abandonable-", 0L);
      return (ThreadFactory) factory.invoke(builder);
    } catch (Throwable notAvailable) {
      return null;
    }
  }
}
