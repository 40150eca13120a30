package dev.brace.redis;

import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeSource;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One "machine" of a fleet in a test: its own Lettuce client (for one server or a cluster),
 * backend and registry, and the events that registry emitted.
 */
final class Fleet implements AutoCloseable {
  /** Every connection a machine opens carries this name ({@code CLIENT SETNAME}), so a test can kill them. */
  static final String CLIENT_NAME = "brace-fleet";

  final ClientResources resources;
  /** The client for a single server; null on a cluster. */
  final RedisClient client;
  /** The client for a cluster; null on a single server. */
  final RedisClusterClient clusterClient;
  final RedisBackend backend;
  final Registry registry;
  /** Every event, in order; a queue, since a fault test makes thousands (a copy-on-write list would copy them all on each). */
  final Queue<Event> events = new ConcurrentLinkedQueue<>();

  Fleet(RedisServer server, RedisBackendOptions options, Map<String, String> environment) {
    this(server, options, environment, TimeSource.system());
  }

  /** A machine whose registry reads {@code time}; the server's clock still runs every script. */
  Fleet(RedisServer server, RedisBackendOptions options, Map<String, String> environment, TimeSource time) {
    // Reconnects quickly, so a test of an outage does not wait out Lettuce's growing backoff.
    this.resources = ClientResources.builder().reconnectDelay(Delay.constant(Duration.ofMillis(50))).build();
    RedisURI uri = RedisURI.create(server.uri());
    uri.setClientName(CLIENT_NAME);
    this.client = RedisClient.create(resources, uri);
    this.clusterClient = null;
    this.backend = RedisBackend.create(client, options);
    this.registry = Registry.builder().backend("redis", backend).environment(environment).timeSource(time).build();
    registry.subscribe(events::add);
  }

  Fleet(RedisCluster cluster, RedisBackendOptions options, Map<String, String> environment) {
    this.resources = ClientResources.builder().reconnectDelay(Delay.constant(Duration.ofMillis(50))).build();
    this.client = null;
    this.clusterClient = RedisClusterClient.create(resources, cluster.uris());
    this.backend = RedisBackend.create(clusterClient, options);
    this.registry = Registry.builder().backend("redis", backend).environment(environment).build();
    registry.subscribe(events::add);
  }

  /** @return the events of {@code kind} that name {@code node} ({@code host:port}) */
  long count(String kind, String node) {
    return events.stream().filter(e -> e.kind().equals(kind) && node.equals(e.attributes().get("node"))).count();
  }

  /** @return when {@code kind} was first emitted, waiting up to 15 s for it; null if it never was */
  Instant awaitFirst(String kind) throws InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      for (Event event : events) {
        if (event.kind().equals(kind)) {
          return event.timestamp();
        }
      }
      Thread.sleep(10);
    }
    return null;
  }

  /** @return the backend's and the breakers' events, for a failure message (refusals left out) */
  String backendEvents() {
    return events.stream()
        .filter(e -> e.kind().startsWith("backend.") || e.kind().startsWith("circuit.opened"))
        .map(Event::toString)
        .toList()
        .toString();
  }

  long count(String kind) {
    return events.stream().filter(e -> e.kind().equals(kind)).count();
  }

  @Override
  public void close() {
    backend.close();
    if (client != null) {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    } else {
      clusterClient.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }
    resources.shutdown(0, 1, java.util.concurrent.TimeUnit.SECONDS);
  }
}
