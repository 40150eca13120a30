package dev.brace.runtime.internal;

import dev.brace.runtime.BulkheadHandle;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.BulkheadConfig;

/** SKELETON: to be implemented (see the helper brief). */
public final class SemaphoreBulkhead implements BulkheadHandle {
  private final BulkheadConfig config;

  public SemaphoreBulkhead(BulkheadConfig config, TimeSource time, EventBus events) {
    this.config = config;
  }

  public BulkheadConfig config() {
    return config;
  }

  public void acquire() {}

  public boolean tryAcquire() {
    return true;
  }

  public void release() {}

  @Override
  public String name() {
    return config.name();
  }

  @Override
  public int inFlight() {
    return 0;
  }

  @Override
  public int available() {
    return config.maxConcurrent();
  }

  @Override
  public int maxConcurrent() {
    return config.maxConcurrent();
  }
}
