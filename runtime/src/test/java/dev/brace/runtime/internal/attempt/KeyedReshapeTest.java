package dev.brace.runtime.internal.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A keyed family given new settings while it is in use (a named instance's config changed live):
 * every member kept gets them, every member made later is made with them, and neither making
 * members nor eviction on one thread holds up the others. Members here are the list of settings
 * they were given, by their {@code name[key]}.
 */
class KeyedReshapeTest {
  /** Bounds a step that would hang forever if a lock were left held; it takes no time otherwise. */
  private static final Duration HUNG = Duration.ofSeconds(3);

  private static List<String> member(String settings, String name) {
    List<String> given = new ArrayList<>();
    given.add(settings + " " + name);
    return given;
  }

  private final KeyedInstances<List<String>> instances =
      new KeyedInstances<>("hosts", 10, name -> member("v1", name), member -> false);

  /** @return what {@code work} returned on a thread of its own, which ends afterwards */
  private static <T> T onAnotherThread(Supplier<T> work) throws Exception {
    CompletableFuture<T> done = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        done.complete(work.get());
      } catch (Throwable failed) {
        done.completeExceptionally(failed);
      }
    }, "another-caller");
    thread.setDaemon(true);
    thread.start();
    try {
      return done.get(HUNG.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException hung) {
      throw new AssertionError("the other thread was held up", hung);
    } catch (ExecutionException failed) {
      throw new AssertionError(failed.getCause());
    }
  }

  private void reshapeToV2(int maxKeys) {
    instances.reshape(maxKeys, name -> member("v2", name), (name, kept) -> kept.add("v2 " + name));
  }

  private static void reshapeToV2(KeyedFamily<List<String>> family) {
    family.reshape(10, name -> member("v2", name), (name, kept) -> kept.add("v2 " + name));
  }

  /** Runs a test's steps, failing rather than hanging should one of them wait for a lock left held. */
  private static void bounded(Executable steps) {
    assertTimeoutPreemptively(HUNG, steps, "held up by a lock left held");
  }

  @Test
  void everyMemberKeptGetsTheNewSettingsByItsNameAndLaterMembersAreMadeWithThem() {
    bounded(() -> {
      instances.get("a");
      onAnotherThread(() -> instances.get("b"));

      reshapeToV2(10);

      assertEquals(List.of("v1 hosts[a]", "v2 hosts[a]"), instances.get("a"));
      assertEquals(List.of("v1 hosts[b]", "v2 hosts[b]"), instances.get("b"), "made on another thread, reshaped all the same");
      assertEquals(List.of("v2 hosts[c]"), onAnotherThread(() -> instances.get("c")), "made after the reshape, on another thread");
    });
  }

  @Test
  void aLowerMaxKeysBoundsTheFamilyFromTheNextNewKey() {
    bounded(() -> {
      for (int i = 0; i < 10; i++) {
        instances.get("k" + i);
      }
      reshapeToV2(5);
      instances.get("k10");
      assertTrue(instances.size() <= 5, "bounded by the new maxKeys: " + instances.size());
    });
  }

  /** One pass evicts to 90% of the bound, so the next new keys do not each scan the family. */
  @Test
  void aFamilyPastItsBoundIsEvictedToNinetyPercentInOnePass() {
    bounded(() -> {
      for (int i = 0; i <= 10; i++) {
        instances.get("k" + i);
      }
      assertEquals(9, instances.size());
      instances.get("k11");
      assertEquals(10, instances.size(), "back at the bound, not past it: nothing evicted");
      assertTrue(instances.snapshot().containsKey("k11"));
    });
  }

  @Test
  void aThreadEvictsAfterAnotherThreadHasEvicted() {
    bounded(() -> {
      onAnotherThread(() -> {
        for (int i = 0; i <= 10; i++) {
          instances.get("first" + i);
        }
        return null;
      });
      assertEquals(9, instances.size(), "the first thread evicted");

      for (int i = 0; i < 10; i++) {
        instances.get("second" + i);
      }
      assertTrue(instances.size() <= 10, "the second thread evicted too: " + instances.size());
    });
  }

  // ---- the family a call sees ----

  @Test
  void aKeyedFamilyPassesItsNewSettingsToEveryMemberAndListsThem() {
    bounded(() -> {
      KeyedFamily<List<String>> family = KeyedFamily.keyed("hosts", 10, name -> member("v1", name), member -> false);
      family.forKey("a");
      family.forKey("b");

      reshapeToV2(family);

      assertEquals(List.of("v1 hosts[a]", "v2 hosts[a]"), family.forKey("a"));
      assertEquals(2, family.instances().size(), "every member kept: " + family.instances());
      assertTrue(family.instances().contains(List.of("v1 hosts[b]", "v2 hosts[b]")));
      assertEquals(Map.of("a", family.forKey("a"), "b", family.forKey("b")), family.members());
    });
  }

  @Test
  void aFamilyOfOnePassesTheNewSettingsToItsOneInstanceByTheFamilysName() {
    bounded(() -> {
      List<String> single = member("v1", "quota");
      KeyedFamily<List<String>> family = KeyedFamily.of("quota", single);

      reshapeToV2(family);

      assertEquals(List.of("v1 quota", "v2 quota"), family.forKey("any key"));
      assertEquals(List.of(single), List.copyOf(family.instances()));
    });
  }
}
