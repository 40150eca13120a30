package dev.brace.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Redis Cluster of real {@code redis-server} processes on free loopback ports, created by a test
 * as an operator would: each node started with {@code --cluster-enabled yes}, then {@code
 * redis-cli --cluster create … --cluster-replicas 0}. No replicas, and {@code
 * cluster-require-full-coverage no}, so a node that dies takes only its own slots with it. Public,
 * and shipped in this module's test jar, as {@link RedisServer} is.
 */
public final class RedisCluster implements AutoCloseable {
  private final Path directory;
  private final List<RedisServer> nodes;

  private RedisCluster(Path directory, List<RedisServer> nodes) {
    this.directory = directory;
    this.nodes = nodes;
  }

  /** @return a cluster of {@code size} primaries that answers for all 16384 slots */
  public static RedisCluster start(int size) {
    Path directory;
    try {
      directory = Files.createTempDirectory("brace-redis-cluster");
    } catch (IOException cannot) {
      throw new IllegalStateException(cannot);
    }
    List<RedisServer> nodes = new ArrayList<>();
    RedisCluster cluster = new RedisCluster(directory, nodes);
    try {
      for (int i = 0; i < size; i++) {
        Path own = Files.createDirectories(directory.resolve("node-" + i));
        nodes.add(RedisServer.start(List.of(
            "--cluster-enabled", "yes",
            "--cluster-port", Integer.toString(RedisServer.freePort()),
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", "1000",
            "--cluster-require-full-coverage", "no",
            "--dir", own.toString())));
      }
      List<String> create = new ArrayList<>(List.of(RedisServer.binary("redis-cli"), "--cluster", "create"));
      nodes.forEach(node -> create.add("127.0.0.1:" + node.port()));
      create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
      Process process = new ProcessBuilder(create).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("redis-cli --cluster create failed: " + output);
      }
      cluster.awaitState(nodes, "ok");
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException failed) {
      cluster.close();
      throw new IllegalStateException("could not create a Redis Cluster", failed);
    }
  }

  /** Waits until every given node says the cluster is {@code state} and knows every slot's node. */
  private void awaitState(List<RedisServer> which, String state) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (RedisServer node : which) {
      while (true) {
        String info = (String) node.command("CLUSTER", "INFO");
        if (info.contains("cluster_state:" + state) && info.contains("cluster_slots_assigned:16384")) {
          break;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("node " + node.port() + " never reached cluster_state:" + state + ": " + info);
        }
        Thread.sleep(20);
      }
    }
  }

  public List<RedisServer> nodes() {
    return nodes;
  }

  /** @return the seed URIs a client is given: every node */
  public List<RedisURI> uris() {
    return nodes.stream().map(node -> RedisURI.create(node.uri())).toList();
  }

  /** @return the node that serves {@code key}'s slot, asked of the cluster itself */
  public RedisServer nodeOf(String key) {
    long slot = (Long) nodes.get(0).command("CLUSTER", "KEYSLOT", key);
    if (slot != SlotHash.getSlot(key)) {
      throw new IllegalStateException("Lettuce and Redis disagree on the slot of " + key);
    }
    for (Object range : (List<?>) nodes.get(0).command("CLUSTER", "SLOTS")) {
      List<?> fields = (List<?>) range;
      if ((Long) fields.get(0) <= slot && slot <= (Long) fields.get(1)) {
        long port = (Long) ((List<?>) fields.get(2)).get(1);
        return nodes.stream().filter(node -> node.port() == port).findFirst().orElseThrow();
      }
    }
    throw new IllegalStateException("no node serves slot " + slot);
  }

  /**
   * @param prefix names are {@code prefix0}, {@code prefix1}, …
   * @param keyOf the Redis key of a name
   * @return one name per node, in node order, whose key that node serves
   */
  public List<String> oneNamePerNode(String prefix, java.util.function.UnaryOperator<String> keyOf) {
    String[] chosen = new String[nodes.size()];
    for (int i = 0, found = 0; found < chosen.length; i++) {
      String name = prefix + i;
      int node = nodes.indexOf(nodeOf(keyOf.apply(name)));
      if (chosen[node] == null) {
        chosen[node] = name;
        found++;
      }
    }
    return List.of(chosen);
  }

  @Override
  public void close() {
    nodes.forEach(RedisServer::close);
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // A temporary directory left behind.
    }
  }
}
