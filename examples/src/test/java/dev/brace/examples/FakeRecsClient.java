package dev.brace.examples;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A stand-in for the recommendations service in tests: it answers, or fails, as the test says. */
public final class FakeRecsClient implements RecsClient {
  private final AtomicInteger calls = new AtomicInteger();
  private volatile String failure;

  /** @param message from now on every call fails with a new {@code IOException(message)} */
  public void failWith(String message) {
    this.failure = message;
  }

  /** From now on every call answers {@code [item-1, item-2]}. */
  public void succeed() {
    this.failure = null;
  }

  /** @return how many calls reached this fake */
  public int calls() {
    return calls.get();
  }

  @Override
  public List<String> recommendations(String userId) throws IOException {
    calls.incrementAndGet();
    String message = failure;
    if (message != null) {
      throw new IOException(message);
    }
    return List.of("item-1", "item-2");
  }
}
