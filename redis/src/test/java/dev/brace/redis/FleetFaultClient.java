package dev.brace.redis;

import dev.brace.redis.Callers.Call;
import dev.brace.redis.Callers.Outcome;
import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * One machine of {@link RedisFleetFaultTest}, in a JVM of its own. Arguments: the Redis URI, its
 * client name, the command timeout in milliseconds, the big quota and the small quota. It prints
 * {@code ready}, calls from {@code go} to {@code stop} (lines on its standard input) through two
 * stacks in turn, both behind one breaker fed only successes, refusing while Redis is unavailable,
 * printing {@code event backend.unavailable <epoch ms> <exception>} and {@code event
 * backend.recovered <epoch ms> -} as they happen, and
 * then prints what it saw:
 *
 * <pre>
 * admitted-big &lt;epoch ms of each admission, comma-separated&gt;
 * failed-big &lt;epoch ms of each call whose command failed under it&gt;
 * admitted-small …
 * failed-small …
 * summary calls=… slowest_ms=… unavailable=… recovered=… opened=… outcomes=…
 * </pre>
 */
public final class FleetFaultClient {
  private FleetFaultClient() {}

  /** @param args uri, client name, command timeout (ms), big quota, small quota */
  public static void main(String[] args) throws Exception {
    ClientResources resources = ClientResources.builder().reconnectDelay(Delay.constant(Duration.ofMillis(50))).build();
    RedisURI uri = RedisURI.create(args[0]);
    uri.setClientName(args[1]);
    RedisClient client = RedisClient.create(resources, uri);
    RedisBackendOptions options = RedisBackendOptions.defaults()
        .withCommandTimeout(Duration.ofMillis(Long.parseLong(args[2])))
        .withRecheckInterval(Duration.ofMillis(100))
        .withWhenUnavailable(WhenUnavailable.REFUSE);
    try (RedisBackend backend = RedisBackend.create(client, options)) {
      Registry registry = Registry.builder().backend("redis", backend).environment(Map.of()).build();
      Map<String, Integer> events = new ConcurrentHashMap<>();
      registry.subscribe(event -> {
        events.merge(event.kind(), 1, Integer::sum);
        if (event.kind().startsWith("backend.")) {
          // As it happens, so the test can wait for a recovery before the next fault, and tell
          // which fault an outage came with.
          Object exception = event.attributes().get("exception");
          System.out.println("event " + event.kind() + " " + event.timestamp().toEpochMilli() + " "
              + (exception == null ? "-" : exception));
        }
      });
      Stack<String> big = quota(registry, "fleet-big", Integer.parseInt(args[3]));
      Stack<String> small = quota(registry, "fleet-small", Integer.parseInt(args[4]));
      // Both scripts cached before the run, without taking from the quotas under test.
      quota(registry, "fleet-warm-up", 1_000).call(() -> "warm");

      CountDownLatch go = new CountDownLatch(1);
      CountDownLatch stop = new CountDownLatch(1);
      Thread commands = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("go")) {
              go.countDown();
            } else if (line.equals("stop")) {
              break;
            }
          }
        } catch (java.io.IOException closed) {
          // Treated as stop.
        }
        go.countDown();
        stop.countDown();
      });
      commands.setDaemon(true);
      commands.start();
      System.out.println("ready");
      System.out.flush();
      go.await();

      List<Call> bigCalls = new ArrayList<>();
      List<Call> smallCalls = new ArrayList<>();
      while (stop.getCount() > 0) {
        boolean useBig = (bigCalls.size() + smallCalls.size()) % 2 == 0;
        Call call = Callers.callOnce(useBig ? big : small, () -> "ok");
        (useBig ? bigCalls : smallCalls).add(call);
        Thread.sleep(2);
      }

      List<Call> all = new ArrayList<>(bigCalls);
      all.addAll(smallCalls);
      print("admitted-big", bigCalls, call -> call.outcome() == Outcome.OK);
      print("failed-big", bigCalls, Call::backendFailed);
      print("admitted-small", smallCalls, call -> call.outcome() == Outcome.OK);
      print("failed-small", smallCalls, Call::backendFailed);
      Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
      all.forEach(call -> outcomes.merge(call.outcome(), 1L, Long::sum));
      System.out.println("summary calls=" + all.size()
          + " slowest_ms=" + Callers.slowestMillis(all)
          + " unavailable=" + events.getOrDefault("backend.unavailable", 0)
          + " recovered=" + events.getOrDefault("backend.recovered", 0)
          + " opened=" + events.getOrDefault("circuit.opened", 0)
          + " outcomes=" + outcomes.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(",")));
      all.stream().filter(call -> call.outcome() == Outcome.UNEXPECTED).limit(3)
          .forEach(call -> call.thrown().printStackTrace(System.out));
      System.out.flush();
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
      resources.shutdown(0, 1, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  private static Stack<String> quota(Registry registry, String name, int tokens) {
    return Stack.<String>builder("Fleet." + name.replace("-", ""))
        .circuitBreaker("fleet-breaker", b -> b.failureThreshold(2).backend("redis"))
        .rateLimit(name, r -> r.permits(tokens).per("1000h").backend("redis"))
        .build(registry);
  }

  private static void print(String label, List<Call> calls, java.util.function.Predicate<Call> which) {
    System.out.println(label + " " + calls.stream().filter(which)
        .map(call -> Long.toString(call.ended().toEpochMilli())).collect(Collectors.joining(",")));
  }
}
