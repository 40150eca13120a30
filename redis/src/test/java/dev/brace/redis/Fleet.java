package dev.brace.redis;

import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeSource;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One "machine" of a fleet in a test: its own Lettuce client, backend and registry, and the events
 * that registry emitted.
 */
final class Fleet implements AutoCloseable {
  final ClientResources resources;
  final RedisClient client;
  final RedisBackend backend;
  final Registry registry;
  final List<Event> events = new CopyOnWriteArrayList<>();

  Fleet(RedisServer server, RedisBackendOptions options, Map<String, String> environment) {
    this(server, options, environment, TimeSource.system());
  }

  /** A machine whose registry reads {@code time}; the server's clock still runs every script. */
  Fleet(RedisServer server, RedisBackendOptions options, Map<String, String> environment, TimeSource time) {
    // Reconnects quickly, so a test of an outage does not wait out Lettuce's growing backoff.
    this.resources = ClientResources.builder().reconnectDelay(Delay.constant(Duration.ofMillis(50))).build();
    this.client = RedisClient.create(resources, server.uri());
    this.backend = RedisBackend.create(client, options);
    this.registry = Registry.builder().backend("redis", backend).environment(environment).timeSource(time).build();
    registry.subscribe(events::add);
  }

  long count(String kind) {
    return events.stream().filter(e -> e.kind().equals(kind)).count();
  }

  @Override
  public void close() {
    backend.close();
    client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    resources.shutdown(0, 1, java.util.concurrent.TimeUnit.SECONDS);
  }
}
