package dev.brace.runtime.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One daemon scheduler thread per registry, started only when a deadline or async wait needs it.
 * Created under a lock rather than a monitor, so virtual threads racing to create it never pin
 * their carriers.
 */
public final class LazyScheduler implements Supplier<ScheduledExecutorService> {
  private final ReentrantLock creating = new ReentrantLock();
  private volatile ScheduledExecutorService scheduler;

  @Override
  public ScheduledExecutorService get() {
    ScheduledExecutorService current = scheduler;
    if (current == null) {
      creating.lock();
      try {
        current = scheduler;
        if (current == null) {
          ScheduledThreadPoolExecutor created =
              new ScheduledThreadPoolExecutor(1, WorkerThreads.daemon("brace-scheduler"));
          created.setRemoveOnCancelPolicy(true);
          scheduler = current = created;
        }
      } finally {
        creating.unlock();
      }
    }
    return current;
  }
}
