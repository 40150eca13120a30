package dev.brace.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.List;

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
    return new RedisLink(connection, connection.async(), connection, owned);
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

  void close() {
    if (owned) {
      connection.close();
    }
  }
}
