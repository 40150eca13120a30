package dev.brace.examples;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Calls a flaky in-process recommendations service through {@link ResilientRecsClient} in three
 * phases (healthy, brownout with 30% failures, hard down) and prints what callers saw, what the
 * service received and what Brace did, counted from the registry's events.
 */
public final class FlakyRecsDemo {

  /** The dependency: fails a share of calls, or all of them, and sometimes hangs. */
  static final class FlakyService implements RecsClient {
    volatile double failureShare;
    volatile boolean down;
    final AtomicInteger received = new AtomicInteger();

    @Override
    public List<String> recommendations(String userId) throws IOException {
      received.incrementAndGet();
      if (down) {
        throw new IOException("connection refused");
      }
      if (ThreadLocalRandom.current().nextDouble() < failureShare) {
        throw new IOException("503 Service Unavailable");
      }
      return List.of("book-" + userId.hashCode() % 7, "film-" + userId.length());
    }
  }

  public static void main(String[] args) throws Exception {
    Registry registry = Registry.builder().build();
    Map<String, AtomicInteger> events = new TreeMap<>();
    registry.subscribe(event -> count(events, event));
    FlakyService service = new FlakyService();
    RecsClient client = ResilientRecsClient.wrap(service, registry);

    System.out.println("phase        calls  answered  fallbacks  service-received  breaker");
    phase("healthy", client, service, registry, 200);
    service.failureShare = 0.3;
    phase("brownout", client, service, registry, 200);
    service.down = true;
    phase("hard-down", client, service, registry, 200);
    service.down = false;
    service.failureShare = 0;
    Thread.sleep(2_100);
    phase("recovered", client, service, registry, 200);

    System.out.println();
    System.out.println("events emitted by the registry:");
    events.forEach((kind, count) -> System.out.printf("  %-22s %d%n", kind, count.get()));
  }

  private static void count(Map<String, AtomicInteger> events, Event event) {
    synchronized (events) {
      events.computeIfAbsent(event.kind(), k -> new AtomicInteger()).incrementAndGet();
    }
  }

  private static void phase(String name, RecsClient client, FlakyService service, Registry registry, int calls)
      throws IOException, InterruptedException {
    int before = service.received.get();
    int answered = 0;
    int fallbacks = 0;
    for (int i = 0; i < calls; i++) {
      List<String> recs = client.recommendations("user-" + i);
      if (recs.isEmpty()) {
        fallbacks++;
      } else {
        answered++;
      }
      Thread.sleep(2);
    }
    CircuitState state = registry.circuitBreaker("recs-api").state();
    System.out.printf("%-12s %5d  %8d  %9d  %16d  %s%n",
        name, calls, answered, fallbacks, service.received.get() - before, state);
  }
}
