package dev.brace.examples.spring;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for the remote recommendations service: answers, or fails while {@link #down} is set,
 * counting the requests it receives. A bean, but not a {@link Recommendations}: a bean implementing
 * that interface would be wrapped by the starter too.
 */
public final class RecsService {
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicInteger requests = new AtomicInteger();

  /**
   * @param userId whose recommendations
   * @return the recommendations
   * @throws IllegalStateException while the service is down
   */
  public List<String> fetch(String userId) {
    requests.incrementAndGet();
    if (down.get()) {
      throw new IllegalStateException("recommendations service unavailable");
    }
    return List.of("book-for-" + userId, "film-for-" + userId);
  }

  /** @param isDown whether the service fails from now on */
  public void down(boolean isDown) {
    down.set(isDown);
  }

  /** @return the requests it received */
  public int requests() {
    return requests.get();
  }
}
