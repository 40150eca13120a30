package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.spi.EventSink;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The store's outage bookkeeping, with replies the test answers itself (no server): which replies
 * start and end an outage when they cross, as they do when a connection drops under several callers.
 */
class RedisStoreTest {
  /** A thread per caller: each blocks in the store until the test answers its script. */
  private static final java.util.concurrent.ExecutorService CALLERS = java.util.concurrent.Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "store-test-caller");
    thread.setDaemon(true);
    return thread;
  });

  /** A reply the test completes when it chooses. */
  private static final class Reply extends CompletableFuture<List<Object>> implements RedisFuture<List<Object>> {
    @Override
    public String getError() {
      return null;
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
      try {
        get(timeout, unit);
        return true;
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException notYet) {
        return isDone();
      }
    }
  }

  /** A connection whose every script is a {@link Reply}, handed to the test in the order they were sent. */
  @SuppressWarnings("unchecked")
  private static StatefulRedisConnection<String, String> connection(BlockingQueue<Reply> sent) {
    RedisAsyncCommands<String, String> commands = (RedisAsyncCommands<String, String>) Proxy.newProxyInstance(
        RedisStoreTest.class.getClassLoader(), new Class<?>[] {RedisAsyncCommands.class}, (proxy, method, args) -> {
          if (method.getName().equals("evalsha") || method.getName().equals("eval")) {
            Reply reply = new Reply();
            sent.add(reply);
            return reply;
          }
          throw new UnsupportedOperationException(method.getName());
        });
    return (StatefulRedisConnection<String, String>) Proxy.newProxyInstance(
        RedisStoreTest.class.getClassLoader(), new Class<?>[] {StatefulRedisConnection.class}, (proxy, method, args) -> {
          if (method.getName().equals("async")) {
            return commands;
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }

  /**
   * Found by looping the fault tests: callers A and B have scripts in flight when the connection
   * drops; B's fails first and starts the outage, then A reads the answer that had arrived just
   * before the drop. That answer must not end the outage (before, it did, 24 ms in, and the next
   * command's failure reported a second outage for one kill of the server).
   */
  @Test
  void aReplyToACommandSentBeforeTheOutageBeganDoesNotEndIt() throws Exception {
    BlockingQueue<Reply> sent = new LinkedBlockingQueue<>();
    RedisBackendOptions options = RedisBackendOptions.defaults()
        .withCommandTimeout(Duration.ofSeconds(10)).withRecheckInterval(Duration.ofMillis(1));
    List<String> events = new CopyOnWriteArrayList<>();
    try (RedisStore store = new RedisStore(null, RedisLink.server(connection(sent), false), options)) {
      store.observedBy(recordingInto(events), "redis");

      CompletableFuture<Object> callerA = CompletableFuture.supplyAsync(() -> evalOrUnavailable(store), CALLERS);
      Reply fromA = sent.poll(10, TimeUnit.SECONDS);
      CompletableFuture<Object> callerB = CompletableFuture.supplyAsync(() -> evalOrUnavailable(store), CALLERS);
      Reply fromB = sent.poll(10, TimeUnit.SECONDS);

      fromB.completeExceptionally(new RedisException("Connection disconnected"));
      assertEquals(RedisStore.Unavailable.class, callerB.get(10, TimeUnit.SECONDS).getClass());
      assertEquals(List.of("backend.unavailable"), events);

      fromA.complete(List.of(1L));
      assertEquals(List.of(1L), callerA.get(10, TimeUnit.SECONDS));
      assertEquals(List.of("backend.unavailable"), events, "A's command was sent before the outage began");

      // A later command that fails belongs to the same outage; one sent after it that succeeds ends it.
      Thread.sleep(2);
      CompletableFuture<Object> recheck = CompletableFuture.supplyAsync(() -> evalOrUnavailable(store), CALLERS);
      sent.poll(10, TimeUnit.SECONDS).completeExceptionally(new RedisException("Connection disconnected"));
      assertEquals(RedisStore.Unavailable.class, recheck.get(10, TimeUnit.SECONDS).getClass());
      Thread.sleep(2);
      CompletableFuture<Object> back = CompletableFuture.supplyAsync(() -> evalOrUnavailable(store), CALLERS);
      sent.poll(10, TimeUnit.SECONDS).complete(List.of(2L));
      assertEquals(List.of(2L), back.get(10, TimeUnit.SECONDS));
      assertEquals(List.of("backend.unavailable", "backend.recovered"), events);
    }
  }

  /**
   * The mirror case: a command sent during an outage fails after another has ended it (two rechecks
   * in flight when the server comes back). Its failure belongs to the outage that is over.
   */
  @Test
  void aFailureOfACommandSentBeforeTheOutageEndedStartsNoNewOne() throws Exception {
    BlockingQueue<Reply> sent = new LinkedBlockingQueue<>();
    RedisBackendOptions options = RedisBackendOptions.defaults()
        .withCommandTimeout(Duration.ofSeconds(10)).withRecheckInterval(Duration.ofMillis(1));
    List<String> events = new CopyOnWriteArrayList<>();
    try (RedisStore store = new RedisStore(null, RedisLink.server(connection(sent), false), options)) {
      store.observedBy(recordingInto(events), "redis");

      CompletableFuture<Object> first = CompletableFuture.supplyAsync(() -> evalOrUnavailable(store), CALLERS);
      sent.poll(10, TimeUnit.SECONDS).completeExceptionally(new RedisException("Connection disconnected"));
      first.get(10, TimeUnit.SECONDS);
      Thread.sleep(2);
      CompletableFuture<Object> recheckOne = CompletableFuture.supplyAsync(() -> evalOrUnavailable(store), CALLERS);
      Reply one = sent.poll(10, TimeUnit.SECONDS);
      Thread.sleep(2);
      CompletableFuture<Object> recheckTwo = CompletableFuture.supplyAsync(() -> evalOrUnavailable(store), CALLERS);
      Reply two = sent.poll(10, TimeUnit.SECONDS);

      two.complete(List.of(1L));
      recheckTwo.get(10, TimeUnit.SECONDS);
      assertEquals(List.of("backend.unavailable", "backend.recovered"), events);
      one.completeExceptionally(new RedisException("Connection disconnected"));
      assertEquals(RedisStore.Unavailable.class, recheckOne.get(10, TimeUnit.SECONDS).getClass());
      assertEquals(List.of("backend.unavailable", "backend.recovered"), events, "no second outage");
    }
  }

  private static EventSink recordingInto(List<String> kinds) {
    return new EventSink() {
      @Override
      public boolean enabled(EventKind kind) {
        return true;
      }

      @Override
      public void emit(EventKind kind, String instance, Object... keysAndValues) {
        kinds.add(kind.key());
      }
    };
  }

  private static Object evalOrUnavailable(RedisStore store) {
    try {
      return store.eval(Script.RATELIMIT_OWED, "brace:ratelimit:test");
    } catch (RedisStore.Unavailable unavailable) {
      return unavailable;
    }
  }
}
