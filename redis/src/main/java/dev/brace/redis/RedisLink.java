package dev.brace.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one thing that differs between a single Redis server and a Redis Cluster: where a script on
 * a key runs, and which node that is. Every Brace script touches exactly one key, so on a cluster
 * it runs on the node serving that key's slot (Lettuce routes it by the key); a script that needed
 * two keys would have to give them one hash tag ({@code {name}}) to land on one slot. Timeouts,
 * outages and fallbacks are the {@link RedisStore}'s, the same for both.
 */
final class RedisLink {
  private final StatefulConnection<String, String> connection;
  private final RedisScriptingAsyncCommands<String, String> scripts;
  /** Null for a single server: every key is on it. */
  private final StatefulRedisClusterConnection<String, String> cluster;
  private final boolean owned;
  /** A health check's key per cluster node id, found once (a node keeps its slots until resharding). */
  private final java.util.Map<String, String> probeKeys = new java.util.concurrent.ConcurrentHashMap<>();

  private RedisLink(
      StatefulConnection<String, String> connection,
      RedisScriptingAsyncCommands<String, String> scripts,
      StatefulRedisClusterConnection<String, String> cluster,
      boolean owned) {
    this.connection = connection;
    this.scripts = scripts;
    this.cluster = cluster;
    this.owned = owned;
  }

  /**
   * @param connection to one server
   * @param owned whether {@link #close()} closes it
   */
  static RedisLink server(StatefulRedisConnection<String, String> connection, boolean owned) {
    return new RedisLink(connection, connection.async(), null, owned);
  }

  /**
   * @param connection to a cluster; each script goes to its key's node
   * @param owned whether {@link #close()} closes it
   */
  static RedisLink cluster(StatefulRedisClusterConnection<String, String> connection, boolean owned) {
    connectToEveryPrimary(connection);
    return new RedisLink(connection, connection.async(), connection, owned);
  }

  /**
   * Opens the connection to every node that serves slots now, waiting up to the client's connect
   * timeout. Lettuce opens a node's connection on the first command for one of its slots and, told
   * to reject commands while disconnected, rejects the commands that arrive while that first
   * connection is pending: without this, the first calls on each node would look like an outage.
   * A node that cannot be reached now is left to its first command (an outage of that node).
   */
  private static void connectToEveryPrimary(StatefulRedisClusterConnection<String, String> connection) {
    List<CompletableFuture<?>> pending = new ArrayList<>();
    for (RedisClusterNode node : connection.getPartitions()) {
      RedisURI uri = node.getUri();
      if (uri != null && node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
        // The key Lettuce routes a slot's commands through: write intent, host and port.
        pending.add(connection.getConnectionAsync(uri.getHost(), uri.getPort()).exceptionally(unreachable -> null));
      }
    }
    Duration wait = connection.getOptions().getSocketOptions().getConnectTimeout();
    try {
      CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException notAll) {
      // Those nodes are connected on first use.
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Sends a script Redis has cached, by its SHA-1; answered {@code NOSCRIPT} when it has not. */
  RedisFuture<List<Object>> evalsha(Script script, String key, String[] args) {
    return scripts.evalsha(script.sha, ScriptOutputType.MULTI, new String[] {key}, args);
  }

  /** Sends a script's text; Redis runs it and caches it under its SHA-1. */
  RedisFuture<List<Object>> eval(Script script, String key, String[] args) {
    return scripts.eval(script.text, ScriptOutputType.MULTI, new String[] {key}, args);
  }

  /**
   * @param key a key a script would run on
   * @return the node serving it now ({@code host:port}), or null on a single server; a cluster
   *     node's outage is its own, so instances on the other nodes go on using theirs
   */
  String node(String key) {
    if (cluster == null) {
      return null;
    }
    int slot = SlotHash.getSlot(key);
    RedisClusterNode node = cluster.getPartitions().getPartitionBySlot(slot);
    if (node == null) {
      return "slot " + slot;
    }
    RedisURI uri = node.getUri();
    return uri == null ? node.getNodeId() : uri.getHost() + ":" + uri.getPort();
  }

  /**
   * @param prefix what the keys start with
   * @return one key per server to ask in a health check: the prefix itself on a single server; on
   *     a cluster, a key of each node that serves slots now, in the partitions' order
   */
  List<String> probeKeys(String prefix) {
    if (cluster == null) {
      return List.of(prefix);
    }
    List<String> keys = new ArrayList<>();
    for (RedisClusterNode node : cluster.getPartitions()) {
      if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
        String key = probeKeys.get(node.getNodeId());
        if (key == null || !node.hasSlot(SlotHash.getSlot(key))) {
          key = keyServedBy(node, prefix);
          probeKeys.put(node.getNodeId(), key);
        }
        keys.add(key);
      }
    }
    return keys;
  }

  /** The first of {@code prefix:0}, {@code prefix:1}, … whose slot the node serves; a node serving any slot has one. */
  private static String keyServedBy(RedisClusterNode node, String prefix) {
    for (int i = 0; ; i++) {
      String key = prefix + ":" + i;
      if (node.hasSlot(SlotHash.getSlot(key))) {
        return key;
      }
    }
  }

  void close() {
    if (owned) {
      connection.close();
    }
  }
}
