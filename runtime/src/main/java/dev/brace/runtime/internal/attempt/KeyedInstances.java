package dev.brace.runtime.internal.attempt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One instance per key under a name, at most {@code maxKeys} of them. Concurrent first use of a
 * key creates one instance; past the bound the least recently used keys are evicted, idle ones
 * first: an instance that is busy (an open breaker, a limiter with callers waiting) goes only when
 * no idle one is left, so a hot failing key does not come back fresh. Use order is a global
 * counter, not a clock, so it costs no system call.
 *
 * <p>Hand-written rather than a Caffeine cache: which entry may go depends on the instance's state
 * at eviction time, and a cache's size policy cannot be asked that.
 *
 * @param <T> the instance type
 */
final class KeyedInstances<T> {
  private final String name;
  private volatile int maxKeys;
  private volatile Function<String, T> factory;
  private final Predicate<T> busy;
  private final ConcurrentHashMap<String, Entry<T>> entries = new ConcurrentHashMap<>();
  private final AtomicLong useCounter = new AtomicLong();
  private final ReentrantLock evicting = new ReentrantLock();
  /** New members are made under the read lock, new settings given under the write lock, so no member misses them. */
  private final ReentrantReadWriteLock reshaping = new ReentrantReadWriteLock();

  /**
   * @param name the family's name; a member is {@code name[key]}
   * @param maxKeys the most members kept
   * @param factory makes the member of a {@code name[key]}
   * @param busy whether a member should outlive idle ones
   */
  KeyedInstances(String name, int maxKeys, Function<String, T> factory, Predicate<T> busy) {
    this.name = Objects.requireNonNull(name, "name");
    this.maxKeys = maxKeys;
    this.factory = Objects.requireNonNull(factory, "factory");
    this.busy = Objects.requireNonNull(busy, "busy");
  }

  T get(String key) {
    if (key == null) {
      throw new IllegalArgumentException("'" + name + "' is keyed but the call gave no key");
    }
    Entry<T> entry = entries.get(key);
    if (entry == null) {
      reshaping.readLock().lock();
      try {
        entry = entries.computeIfAbsent(key, k -> new Entry<>(factory.apply(memberName(k))));
      } finally {
        reshaping.readLock().unlock();
      }
      if (entries.size() > maxKeys) {
        evict(key);
      }
    }
    entry.lastUse = useCounter.incrementAndGet();
    return entry.instance;
  }

  /** @return {@code name[key]} */
  String memberName(String key) {
    return name + "[" + key + "]";
  }

  /**
   * Evicts down to 90% of the bound in one pass, so a stream of new keys does not scan on every
   * call; one thread evicts at a time and the others go on (never blocking a caller on a monitor).
   */
  private void evict(String keep) {
    if (!evicting.tryLock()) {
      return;
    }
    try {
      int excess = entries.size() - Math.max(1, maxKeys - Math.max(1, maxKeys / 10));
      if (entries.size() <= maxKeys || excess <= 0) {
        return;
      }
      List<Map.Entry<String, Entry<T>>> candidates = new ArrayList<>(entries.entrySet());
      candidates.removeIf(candidate -> candidate.getKey().equals(keep));
      // Idle first, then the least recently used.
      candidates.sort(Comparator.<Map.Entry<String, Entry<T>>, Boolean>comparing(candidate -> busy.test(candidate.getValue().instance))
          .thenComparingLong(candidate -> candidate.getValue().lastUse));
      for (int i = 0; i < excess && i < candidates.size(); i++) {
        entries.remove(candidates.get(i).getKey(), candidates.get(i).getValue());
      }
    } finally {
      evicting.unlock();
    }
  }

  /**
   * Gives every member, and every member made from now on, new settings.
   *
   * @param maxKeys the most members kept from now on
   * @param factory makes the member of a {@code name[key]} with the new settings
   * @param reshape gives an existing member, by its {@code name[key]}, the new settings
   */
  void reshape(int maxKeys, Function<String, T> factory, java.util.function.BiConsumer<String, T> reshape) {
    reshaping.writeLock().lock();
    try {
      this.maxKeys = maxKeys;
      this.factory = Objects.requireNonNull(factory, "factory");
      entries.forEach((key, entry) -> reshape.accept(memberName(key), entry.instance));
    } finally {
      reshaping.writeLock().unlock();
    }
  }

  int size() {
    return entries.size();
  }

  /** @return the members by key, in no particular order */
  Map<String, T> snapshot() {
    Map<String, T> copy = new LinkedHashMap<>();
    entries.forEach((key, entry) -> copy.put(key, entry.instance));
    return copy;
  }

  private static final class Entry<T> {
    final T instance;
    volatile long lastUse;

    Entry(T instance) {
      this.instance = instance;
    }
  }
}
