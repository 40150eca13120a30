package dev.brace.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** The scheduler of a {@link ManualTimeSource}: tasks run when that clock passes their due time. */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

  private final ManualTimeSource clock;
  private final PriorityQueue<Task> queue = new PriorityQueue<>();
  private long sequence;
  private boolean shutdown;

  ManualScheduler(ManualTimeSource clock) {
    this.clock = clock;
  }

  /** Removes and returns the earliest task due at or before {@code limit}, or null. */
  synchronized Task pollDue(long limit) {
    Task head = queue.peek();
    while (head != null && head.isCancelled()) {
      queue.poll();
      head = queue.peek();
    }
    if (head == null || head.due > limit) {
      return null;
    }
    return queue.poll();
  }

  private synchronized <V> Task add(Callable<V> callable, long delayNanos, long periodNanos) {
    if (shutdown) {
      throw new RejectedExecutionException("the manual scheduler is shut down");
    }
    Task task = new Task(callable, clock.nanoTime() + Math.max(0, delayNanos), periodNanos, sequence++);
    queue.add(task);
    return task;
  }

  private synchronized void requeue(Task task) {
    if (!shutdown) {
      task.due += task.period;
      task.order = sequence++;
      queue.add(task);
    }
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return add(Executors.callable(command), unit.toNanos(delay), 0);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return (ScheduledFuture<V>) add(callable, unit.toNanos(delay), 0);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    if (period <= 0) {
      throw new IllegalArgumentException("period must be positive: " + period);
    }
    return add(Executors.callable(command), unit.toNanos(initialDelay), unit.toNanos(period));
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    return scheduleAtFixedRate(command, initialDelay, delay, unit);
  }

  /** Runs at the next advance of the clock (delay zero). */
  @Override
  public void execute(Runnable command) {
    add(Executors.callable(command), 0, 0);
  }

  @Override
  public synchronized void shutdown() {
    shutdown = true;
  }

  @Override
  public synchronized List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> pending = new ArrayList<>(queue);
    queue.clear();
    return pending;
  }

  @Override
  public synchronized boolean isShutdown() {
    return shutdown;
  }

  @Override
  public synchronized boolean isTerminated() {
    return shutdown && queue.isEmpty();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return isTerminated();
  }

  /** A task with its due time on the manual clock. */
  final class Task extends FutureTask<Object> implements ScheduledFuture<Object> {
    private long due;
    private final long period;
    private long order;

    @SuppressWarnings("unchecked")
    Task(Callable<?> callable, long due, long period, long order) {
      super((Callable<Object>) callable);
      this.due = due;
      this.period = period;
      this.order = order;
    }

    long dueNanos() {
      return due;
    }

    @Override
    public void run() {
      if (period == 0) {
        super.run();
      } else if (runAndReset()) {
        requeue(this);
      }
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(due - clock.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      if (other == this) {
        return 0;
      }
      if (other instanceof Task) {
        Task task = (Task) other;
        int byDue = Long.compare(due, task.due);
        return byDue != 0 ? byDue : Long.compare(order, task.order);
      }
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      if (cancelled) {
        synchronized (ManualScheduler.this) {
          queue.remove(this);
        }
      }
      return cancelled;
    }
  }
}
