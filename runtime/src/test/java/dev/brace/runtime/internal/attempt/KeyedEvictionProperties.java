package dev.brace.runtime.internal.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Keyed members under random use, busy marks and new keys: the bound holds after every call, the
 * key just asked for stays, a member comes back as the same instance until evicted (and fresh
 * after), and eviction takes idle members before busy ones and, among each, the least recently
 * used first — so a busy member goes only when no idle one is left to take.
 */
class KeyedEvictionProperties {

  enum Kind { GET, MARK_BUSY, MARK_IDLE }

  record Op(Kind kind, int key) {}

  /** A member whose busy mark the test sets. */
  static final class Member {
    final String name;
    boolean busy;

    Member(String name) {
      this.name = name;
    }
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Kind> kinds = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.just(Kind.GET)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.MARK_BUSY)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.MARK_IDLE)));
    return kinds.flatMap(kind -> Arbitraries.integers().between(0, 24).map(key -> new Op(kind, key)))
        .list().ofMaxSize(150);
  }

  @Property
  void boundHeldAndIdleLeastRecentlyUsedGoFirst(
      @ForAll @IntRange(min = 1, max = 12) int maxKeys, @ForAll("ops") List<Op> ops) {
    KeyedInstances<Member> members = new KeyedInstances<>("n", maxKeys, Member::new, member -> member.busy);
    Map<String, Member> expected = new HashMap<>();
    Map<String, Long> lastUse = new HashMap<>();
    Map<String, Member> evicted = new HashMap<>();
    long uses = 0;

    for (Op op : ops) {
      String key = "k" + op.key();
      if (op.kind() != Kind.GET) {
        Member member = expected.get(key);
        if (member != null) {
          member.busy = op.kind() == Kind.MARK_BUSY;
        }
        continue;
      }
      Map<String, Member> before = new HashMap<>(expected);
      Member got = members.get(key);
      uses++;
      if (before.containsKey(key)) {
        assertSame(before.get(key), got, "a kept member comes back as itself");
      } else {
        assertEquals("n[" + key + "]", got.name);
        if (evicted.containsKey(key)) {
          assertNotSame(evicted.get(key), got, "an evicted key comes back fresh");
        }
      }
      Map<String, Member> after = members.snapshot();
      assertTrue(after.size() <= maxKeys, after.size() + " members kept, bound " + maxKeys);
      assertSame(got, after.get(key), "the key just asked for stays");
      for (Map.Entry<String, Member> kept : after.entrySet()) {
        if (!kept.getKey().equals(key)) {
          assertSame(before.get(kept.getKey()), kept.getValue(), "no member appears or changes but the one asked for");
        }
      }
      for (Map.Entry<String, Member> gone : before.entrySet()) {
        if (after.containsKey(gone.getKey())) {
          continue;
        }
        assertEquals(maxKeys, before.size(), "members go only when a new key passes the bound");
        for (Map.Entry<String, Member> kept : after.entrySet()) {
          if (kept.getKey().equals(key)) {
            continue;
          }
          boolean goneFirst = !gone.getValue().busy && kept.getValue().busy
              || gone.getValue().busy == kept.getValue().busy
                  && lastUse.get(gone.getKey()) < lastUse.get(kept.getKey());
          assertTrue(goneFirst, gone.getKey() + (gone.getValue().busy ? " (busy)" : " (idle)")
              + " evicted before " + kept.getKey() + (kept.getValue().busy ? " (busy)" : " (idle)"));
        }
        evicted.put(gone.getKey(), gone.getValue());
      }
      if (after.size() < before.size() + (before.containsKey(key) ? 0 : 1)) {
        assertEquals(Math.max(1, maxKeys - Math.max(1, maxKeys / 10)), after.size(),
            "one eviction pass goes down to 90% of the bound");
      }
      expected = new HashMap<>(after);
      lastUse.put(key, uses);
    }
  }
}
